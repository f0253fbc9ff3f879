/** Shared test data for the jsdom tests (not imported by the app). */
import { RouterContextProvider } from "react-router";
import { vi } from "vitest";
import { type GatewayContext, gatewayContext } from "../../../client/lib/gateway-context";
import type { SessionUser } from "../../../shared/contract/accounts.ts";
import type { Integration, Project } from "../../../shared/contract/code-hosts.ts";
import type { SessionConfirmation } from "../../../shared/gateway-context.ts";

export const USER: SessionUser = {
  id: "user-0123456789abcdef",
  email: "ada@example.com",
  name: "Ada Lovelace",
  role: "org_admin",
  provider: "email",
  orgName: "Analytical Engines",
  orgId: "org-42",
};

export const FIREBASE = { apiKey: "demo-key", authDomain: "demo.local", projectId: "demo-argus" };

export function gateway(overrides: Partial<GatewayContext> = {}): GatewayContext {
  return {
    nonce: "nonce",
    requestId: "req-1",
    productName: "Argus",
    backendUrl: "http://backend.test",
    firebase: FIREBASE,
    localMode: false,
    session: { token: "secret-token", user: USER, confirmation: confirmedAs(USER) },
    log: { debug: () => {}, error: () => {} },
    ...overrides,
  };
}

/** A session the backend has confirmed (null: says has ended); the loaders' calls go out unobserved. */
export function confirmedAs(user: SessionUser | null): SessionConfirmation {
  return { observe: (send) => send, confirmed: () => Promise.resolve(user) };
}

export function contextWith(value: GatewayContext): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(gatewayContext, value);
  return context;
}

/** What a root route loader answers in tests (same shape as client/root.tsx). */
export function rootData(value: GatewayContext = gateway()) {
  return {
    productName: value.productName,
    user: value.session?.user ?? null,
    firebase: value.firebase,
    localMode: value.localMode,
  };
}

export function project(overrides: Partial<Project> = {}): Project {
  return {
    id: "p1",
    name: "engine",
    integration_key: "ik-1",
    integration_name: "github",
    integration_type: "git",
    external_link: "https://github.com/babbage/engine",
    active: true,
    webhook_active: true,
    ...overrides,
    properties: {
      full_name: "babbage/engine",
      private: true,
      description: "The difference engine",
      default_branch: "main",
      fork: false,
      ...overrides.properties,
    },
  };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function integration(overrides: Partial<Integration> = {}): Integration {
  return {
    name: "azure-devops",
    key: "azure-devops",
    display_name: "Azure DevOps",
    sub_title: "Code host",
    description: "Connect an Azure DevOps project with a personal access token.",
    isActive: false,
    links: { icon: "/icons/azure-devops.svg" },
    fields: [
      {
        key: "organization_url",
        label: "Organization URL",
        type: "url",
        hint: "https://dev.azure.com/your-organization",
      },
      { key: "personal_access_token", label: "Personal Access Token", type: "password", hint: "A token" },
    ],
    activeIntegration: null,
    ...overrides,
  };
}

export const GITHUB_INTEGRATION = integration({
  name: "github",
  key: "github",
  display_name: "GitHub",
  description: "Install the GitHub App on your account or organisation.",
  links: { icon: "/icons/github.svg", oauth_url: "https://github.com/apps/argus/installations/new" },
  fields: [],
});

/** A sandbox installation id, and GitHub as the backend offers it without a GitHub App. */
export const SANDBOX_INSTALLATION_ID = "sandbox-0a1b2c3d";
/** The code the backend signed into the sandbox Connect link (its form does not matter to pages). */
export const SANDBOX_CODE = "1800000000000.c2lnbmVkLWJ5LXRoZS1iYWNrZW5kLWZvci10aGlzLXVzZXI";
export const SANDBOX_GITHUB_INTEGRATION = integration({
  ...GITHUB_INTEGRATION,
  links: {
    icon: "/icons/github.svg",
    oauth_url: `http://gateway.test/sandbox/install?installation_id=${SANDBOX_INSTALLATION_ID}&code=${SANDBOX_CODE}`,
  },
});

/** A GitHub identity as the Firebase popup hands it over (client/features/accounts/firebase-auth.ts). */
export const GITHUB_IDENTITY = {
  idToken: "gh-id-token",
  uid: "gh-uid",
  email: "ada@example.com",
  name: "Ada",
  avatarUrl: "https://avatars.example/ada.png",
  oauthAccessToken: "gho_token",
  screenName: "ada",
  scopes: ["user:email", "read:user"],
};

/** A sign-in answer as the browser gets it (the gateway keeps the token). */
export const SIGNED_IN = {
  user: { id: "user-1", email: "ada@example.com", name: "Ada", role: "owner" },
  org: { org_id: "org-1", name: "Engines" },
};

/** The status of what a loader throws (`data(null, { status })`), or undefined when it resolves. */
export async function thrownStatusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { init?: ResponseInit }).init?.status;
  }
  return undefined;
}

/** Answers in turn, one a call; the last one again once the others are used. */
export type AnswersInTurn = (() => Response | Promise<Response>)[];

/** The next of `answers` (taken off the list while more follow), or undefined when it is empty. */
export function nextAnswer(answers: AnswersInTurn): Promise<Response> | Response | undefined {
  const next = answers.length > 1 ? answers.shift() : answers[0];
  return next?.();
}

/** afterEach of the tests that stub fetch (and may fake timers): the real timers and fetch again. */
export function restoreFetch(fetchMock: { mockReset(): unknown }): void {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
}
