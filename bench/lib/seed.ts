/**
 * A signed-in account with 20 repositories on a running stack, made the way a user makes them: a
 * verified user in the Firebase Auth emulator signs in to the backend (its first sign-in creates
 * the account and its trial), connects the sandbox code host (its sample repositories) and an Azure
 * DevOps project (the local fake, with the rest). Its session token is the bearer for direct calls
 * and the `auth_token` cookie for the gateway.
 */
import { randomBytes } from "node:crypto";
import { AZURE_DEVOPS_FIELDS, AZURE_DEVOPS_INTEGRATION } from "../../backend/code-hosts/catalogue.ts";
import type { RunningStack } from "../../scripts/lib/stack.ts";
import { SESSION_COOKIE_NAME } from "../../shared/constants.ts";
import type { SignInResponse } from "../../shared/contract/accounts.ts";
import type { IntegrationResponse } from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { SANDBOX_INTEGRATION, sandboxConnectOf } from "../../shared/contract/sandbox.ts";
import { SANDBOX_REPOSITORIES } from "../../shared/sandbox-samples.ts";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../../tests/support/fake-azure-devops.ts";
import { createEmulatorUser, signInOnEmulator } from "../../tests/support/firebase-emulator-users.ts";

export const REPOSITORY_COUNT = 20;

export interface BenchAccount {
  /** `authorization` for direct calls to the backend. */
  bearer: Record<string, string>;
  /** `cookie` for calls through the gateway. */
  cookie: Record<string, string>;
  /** The session token alone (Lighthouse's extra headers). */
  token: string;
  /** The fake Azure DevOps the repositories come from; close it with the stack. */
  azureDevOps: FakeAzureDevOps;
}

async function call<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...init.headers },
  });
  if (!response.ok) {
    const detail = await response.text();
    throw new Error(`${init.method ?? "GET"} ${new URL(url).pathname}: ${response.status} ${detail}`);
  }
  return (await response.json()) as T;
}

/** Needs the stack started with AZURE_DEVOPS_ALLOW_HTTP=true (the fake is plain http). */
export async function seedAccount(stack: RunningStack): Promise<BenchAccount> {
  const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
  const password = `Bench-${randomBytes(8).toString("hex")}`;
  const { uid } = await createEmulatorUser(stack.emulatorHost, stack.projectId, {
    email,
    password,
    displayName: "Bench User",
    emailVerified: true,
  });
  const idToken = await signInOnEmulator(stack.emulatorHost, email, password);
  const signedIn = await call<SignInResponse>(`${stack.backendUrl}${API_PATHS.login}`, {
    method: "POST",
    body: JSON.stringify({ email, firebase_uid: uid, idToken }),
  });
  const bearer = { authorization: `Bearer ${signedIn.token}` };

  // The sandbox's Connect link: its installation id and the code the backend signed for this user.
  const github = await call<IntegrationResponse>(
    `${stack.backendUrl}${API_PATHS.integration(SANDBOX_INTEGRATION)}`,
    { headers: bearer },
  );
  await call(`${stack.backendUrl}${API_PATHS.githubSetup}`, {
    method: "POST",
    headers: bearer,
    body: JSON.stringify({ org_id: signedIn.org.org_id, ...sandboxConnectOf(github.data.links.oauth_url) }),
  });
  const azureDevOps = await startFakeAzureDevOps({
    repositoryNames: Array.from(
      { length: REPOSITORY_COUNT - SANDBOX_REPOSITORIES.length },
      (_, i) => `bench-repository-${i + 1}`,
    ),
  });
  await call(`${stack.backendUrl}${API_PATHS.integrationSetup(AZURE_DEVOPS_INTEGRATION)}`, {
    method: "POST",
    headers: bearer,
    body: JSON.stringify({
      [AZURE_DEVOPS_FIELDS.organizationUrl]: azureDevOps.organizationUrl,
      [AZURE_DEVOPS_FIELDS.project]: azureDevOps.project,
      [AZURE_DEVOPS_FIELDS.personalAccessToken]: azureDevOps.personalAccessToken,
    }),
  });
  const projects = await call<{ data: { projects: unknown[] } }>(`${stack.backendUrl}${API_PATHS.projects}`, {
    headers: bearer,
  });
  if (projects.data.projects.length !== REPOSITORY_COUNT) {
    await azureDevOps.close();
    throw new Error(`seeded ${projects.data.projects.length} repositories, not ${REPOSITORY_COUNT}`);
  }
  return {
    bearer,
    cookie: { cookie: `${SESSION_COOKIE_NAME}=${signedIn.token}` },
    token: signedIn.token,
    azureDevOps,
  };
}
