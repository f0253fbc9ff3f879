/**
 * The typed API client. Server loaders use it with the bearer token from the verified cookie and
 * the backend's URL; browser code uses it with baseUrl "" so calls go to the same origin (cookie).
 */
import type * as v from "valibot";
import {
  type browserSignInResponseSchema,
  type browserSignupResponseSchema,
  ERRORS,
  type GithubSignupRequest,
  type LoginRequest,
  type outboxResponseSchema,
  type SignupRequest,
} from "../../shared/contract/accounts.ts";
import type {
  GithubSetupRequest,
  IntegrationSetupRequest,
  integrationResponseSchema,
  integrationSetupResponseSchema,
  integrationsResponseSchema,
  projectsResponseSchema,
  serviceHookSecretResponseSchema,
} from "../../shared/contract/code-hosts.ts";
import {
  API_PATHS,
  type ErrorBody,
  type messageResponseSchema,
  type successResponseSchema,
} from "../../shared/contract/common.ts";
import { type PageQuery, type ProjectSort, pageQueryString } from "../../shared/contract/paging.ts";
import { DEFAULT_SETTINGS_PROVIDER, type SettingsProvider } from "../../shared/settings-catalogue.ts";

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

/** A successful answer that is not a JSON object: something other than the backend answered. */
export class MalformedAnswerError extends Error {
  constructor(path: string) {
    super(`The answer to ${path} is not a JSON object`);
    this.name = "MalformedAnswerError";
  }
}

/**
 * The error body of an answer, when it has the contract's shape (`errorBodySchema`). Checked by
 * hand: the browser's calls carry no validator (docs/decisions/053-valibot-contract.md).
 */
function errorBodyOf(json: unknown): ErrorBody | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const { error, code, message } = json as Record<string, unknown>;
  const textOrAbsent = (value: unknown) => value === undefined || typeof value === "string";
  if (typeof error !== "string" || !textOrAbsent(code) || !textOrAbsent(message)) return undefined;
  return json as ErrorBody;
}

export interface ApiClientOptions {
  baseUrl: string;
  token?: string;
  requestId?: string;
  fetch?: typeof fetch;
  /** The caller's own end (the page request going away): a call it aborts throws its reason. */
  signal?: AbortSignal;
  /**
   * Calls still unanswered this long after the client's first call fail as an unavailable backend
   * would: a deadline for all of them, as a page's loader has (client/lib/backend.server.ts).
   */
  deadlineMs?: number;
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
  // Made at the first call, one for all of them: a timer per call would cost more than the call's own work.
  let deadline: AbortSignal | undefined;
  const callSignal = () => {
    if (options.deadlineMs === undefined) return options.signal;
    if (!deadline) {
      const timeout = AbortSignal.timeout(options.deadlineMs);
      deadline = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    }
    return deadline;
  };

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
        signal: callSignal(),
        credentials: "same-origin",
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError(503, undefined, ERRORS.backendUnavailable, true);
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      if (response.status === 401 && path.startsWith("/api/")) options.onSessionEnded?.();
      throw new ApiError(response.status, errorBodyOf(json), response.statusText);
    }
    return json;
  }

  /**
   * A call whose answer has the shape of the contract's schema `S`. The schema is a type here, not
   * a check: the backend's answers are held to the contract's schemas by the backend's own tests,
   * and the browser's calls do not carry the schemas (docs/decisions/053-valibot-contract.md). An
   * answer that is not a JSON object (a proxy's error page, say) throws `MalformedAnswerError`.
   */
  async function call<S extends v.GenericSchema>(path: string, init?: CallInit): Promise<v.InferOutput<S>> {
    const answer = await send(path, init);
    if (typeof answer !== "object" || answer === null) throw new MalformedAnswerError(path);
    return answer as v.InferOutput<S>;
  }

  return {
    call,
    /**
     * One page of the organisation's repositories on a code host, GitHub unless `integrationName`
     * says (shared/contract/common.ts: page, size, search, sort).
     */
    getProjects: (
      page: Partial<PageQuery<ProjectSort>> = {},
      integrationName: SettingsProvider = DEFAULT_SETTINGS_PROVIDER,
    ) =>
      call<typeof projectsResponseSchema>(
        `${API_PATHS.projects}${pageQueryString(page, { integrationType: "git", integrationName })}`,
      ),
    /** The integration catalogue as the caller's organisation has it. */
    getIntegrations: () => call<typeof integrationsResponseSchema>(API_PATHS.integrations),
    /** One integration; 404 for a name the catalogue does not hold. */
    getIntegration: (name: string) => call<typeof integrationResponseSchema>(API_PATHS.integration(name)),
    /** Saves an integration's setup form, the values keyed by field key. */
    setupIntegration: (name: string, values: IntegrationSetupRequest) =>
      call<typeof integrationSetupResponseSchema>(API_PATHS.integrationSetup(name), {
        method: "POST",
        body: values,
      }),
    /** A new service-hook secret for the organisation's Azure DevOps integration (the old one stops working). */
    generateAzureDevOpsHookSecret: () =>
      call<typeof serviceHookSecretResponseSchema>(API_PATHS.azureDevOpsHookSecret, {
        method: "POST",
        body: {},
      }),
    /** Completes the app installation /installation was sent back with. */
    setupGitHub: (body: GithubSetupRequest) =>
      call<typeof integrationSetupResponseSchema>(API_PATHS.githubSetup, { method: "POST", body }),
    /** Browser sign-in with a Firebase ID token; the gateway turns the answer's token into the cookie. */
    login: (body: LoginRequest) =>
      call<typeof browserSignInResponseSchema>(API_PATHS.login, { method: "POST", body }),
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
      call<typeof browserSignupResponseSchema>(API_PATHS.signup, { method: "POST", body }),
    githubSignup: (body: GithubSignupRequest) =>
      call<typeof browserSignInResponseSchema>(API_PATHS.githubSignup, { method: "POST", body }),
    /** The code of an OAuth redirect (/oauth/callback/{provider}). */
    providerLogin: (provider: string, code: string) =>
      call<typeof browserSignInResponseSchema>(API_PATHS.providerLogin(provider), {
        method: "POST",
        body: { code },
      }),
    /** Answers the same message whether or not the address has an account. */
    forgotPassword: (email: string) =>
      call<typeof messageResponseSchema>(API_PATHS.forgotPassword, { method: "POST", body: { email } }),
    /** 400 when the reset link's code is used, expired or unknown. */
    checkResetCode: (oobCode: string) =>
      call<typeof successResponseSchema>(API_PATHS.resetPasswordCheck, { method: "POST", body: { oobCode } }),
    resetPassword: (oobCode: string, newPassword: string) =>
      call<typeof successResponseSchema>(API_PATHS.resetPassword, {
        method: "POST",
        body: { oobCode, newPassword },
      }),
    /** Local mode only; 404 otherwise. */
    outbox: () => call<typeof outboxResponseSchema>(API_PATHS.outbox),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
