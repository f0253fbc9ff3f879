/**
 * The typed API client. Server loaders use it with the bearer token from the verified cookie and
 * the backend's URL; browser code uses it with baseUrl "" so calls go to the same origin (cookie).
 */
import type { z } from "zod";
import { ERRORS } from "../../shared/contract/accounts.ts";
import {
  browserSignInResponseSchema,
  browserSignupResponseSchema,
  type GithubSignupRequest,
  type LoginRequest,
  outboxResponseSchema,
  type SignupRequest,
} from "../../shared/contract/accounts-schemas.ts";
import {
  type GithubSetupRequest,
  type IntegrationSetupRequest,
  integrationResponseSchema,
  integrationSetupResponseSchema,
  integrationsResponseSchema,
  projectsResponseSchema,
  serviceHookSecretResponseSchema,
} from "../../shared/contract/code-hosts-schemas.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import {
  type ErrorBody,
  errorBodySchema,
  messageResponseSchema,
  successResponseSchema,
} from "../../shared/contract/common-schemas.ts";
import { type PageQuery, type ProjectSort, pageQueryString } from "../../shared/contract/paging.ts";

export class ApiError extends Error {
  readonly status: number;
  /** The answer's error body, when it has the contract's shape; undefined when nothing answered. */
  readonly body: ErrorBody | undefined;
  /** True when nothing answered at all (a network failure); `status` is then 503. */
  readonly unreachable: boolean;

  constructor(status: number, body: ErrorBody | undefined, fallbackMessage: string, unreachable = false) {
    super(body?.message ?? body?.error ?? fallbackMessage);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    this.unreachable = unreachable;
  }

  get code(): string | undefined {
    return this.body?.code;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  token?: string;
  requestId?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /**
   * Called when an `/api` call answers 401: the session is gone (signed out in another tab,
   * revoked). The browser's calls send the user to sign in; the call still throws.
   */
  onSessionEnded?: () => void;
}

interface CallInit {
  method?: string;
  body?: unknown;
}

export function createApiClient(options: ApiClientOptions) {
  /** One call: answers the JSON body (undefined if there is none), throws ApiError unless 2xx. */
  async function send(path: string, init: CallInit = {}): Promise<unknown> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.requestId) headers["x-request-id"] = options.requestId;
    let response: Response;
    try {
      // The global is read per call, not when the client is made (tests replace it).
      response = await (options.fetch ?? fetch)(`${options.baseUrl}${path}`, {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: options.signal,
        credentials: "same-origin",
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError(503, undefined, ERRORS.backendUnavailable, true);
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      if (response.status === 401 && path.startsWith("/api/")) options.onSessionEnded?.();
      const parsed = errorBodySchema.safeParse(json);
      throw new ApiError(response.status, parsed.success ? parsed.data : undefined, response.statusText);
    }
    return json;
  }

  /** A call whose answer must match `schema`; a mismatch throws the schema's error. */
  async function request<S extends z.ZodType>(schema: S, path: string, init?: CallInit): Promise<z.infer<S>> {
    return schema.parse(await send(path, init));
  }

  return {
    request,
    /** One page of the organisation's GitHub repositories (shared/contract/common.ts: page, size, search, sort). */
    getProjects: (page: Partial<PageQuery<ProjectSort>> = {}) =>
      request(
        projectsResponseSchema,
        `${API_PATHS.projects}${pageQueryString(page, { integrationType: "git", integrationName: "github" })}`,
      ),
    /** The integration catalogue as the caller's organisation has it. */
    getIntegrations: () => request(integrationsResponseSchema, API_PATHS.integrations),
    /** One integration; 404 for a name the catalogue does not hold. */
    getIntegration: (name: string) => request(integrationResponseSchema, API_PATHS.integration(name)),
    /** Saves an integration's setup form, the values keyed by field key. */
    setupIntegration: (name: string, values: IntegrationSetupRequest) =>
      request(integrationSetupResponseSchema, API_PATHS.integrationSetup(name), {
        method: "POST",
        body: values,
      }),
    /** A new service-hook secret for the organisation's Azure DevOps integration (the old one stops working). */
    generateAzureDevOpsHookSecret: () =>
      request(serviceHookSecretResponseSchema, API_PATHS.azureDevOpsHookSecret, { method: "POST", body: {} }),
    /** Completes the app installation /installation was sent back with. */
    setupGitHub: (body: GithubSetupRequest) =>
      request(integrationSetupResponseSchema, API_PATHS.githubSetup, { method: "POST", body }),
    /** Browser sign-in with a Firebase ID token; the gateway turns the answer's token into the cookie. */
    login: (body: LoginRequest) =>
      request(browserSignInResponseSchema, API_PATHS.login, { method: "POST", body }),
    /** The answer carries nothing the caller uses. */
    logout: async () => {
      await send(API_PATHS.logout, { method: "POST" });
    },
    /** The answer's message is not shown: the page has its own wording for success. */
    resendVerification: async (email: string) => {
      await send(API_PATHS.resendVerification, { method: "POST", body: { email } });
    },
    /** E-mail signup with the ID token of the Firebase user the browser just created. */
    signup: (body: SignupRequest) =>
      request(browserSignupResponseSchema, API_PATHS.signup, { method: "POST", body }),
    githubSignup: (body: GithubSignupRequest) =>
      request(browserSignInResponseSchema, API_PATHS.githubSignup, { method: "POST", body }),
    /** The code of an OAuth redirect (/oauth/callback/{provider}). */
    providerLogin: (provider: string, code: string) =>
      request(browserSignInResponseSchema, API_PATHS.providerLogin(provider), {
        method: "POST",
        body: { code },
      }),
    /** Answers the same message whether or not the address has an account. */
    forgotPassword: (email: string) =>
      request(messageResponseSchema, API_PATHS.forgotPassword, { method: "POST", body: { email } }),
    /** 400 when the reset link's code is used, expired or unknown. */
    checkResetCode: (oobCode: string) =>
      request(successResponseSchema, API_PATHS.resetPasswordCheck, { method: "POST", body: { oobCode } }),
    resetPassword: (oobCode: string, newPassword: string) =>
      request(successResponseSchema, API_PATHS.resetPassword, {
        method: "POST",
        body: { oobCode, newPassword },
      }),
    /** Local mode only; 404 otherwise. */
    outbox: () => request(outboxResponseSchema, API_PATHS.outbox),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
