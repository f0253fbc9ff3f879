/**
 * The typed API client. Server loaders use it with the bearer token from the verified cookie and
 * the backend's URL; browser code uses it with baseUrl "" so calls go to the same origin (cookie).
 */
import type { z } from "zod";
import {
  API_PATHS,
  browserSignInResponseSchema,
  type ErrorBody,
  errorBodySchema,
  type LoginRequest,
  projectsResponseSchema,
} from "./contract.ts";
import { ERRORS } from "./messages.ts";

export class ApiError extends Error {
  readonly status: number;
  /** The answer's error body, when it has the contract's shape; undefined when nothing answered. */
  readonly body: ErrorBody | undefined;

  constructor(status: number, body: ErrorBody | undefined, fallbackMessage: string) {
    super(body?.message ?? body?.error ?? fallbackMessage);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
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
      throw new ApiError(503, undefined, ERRORS.backendUnavailable);
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
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
    getProjects: () =>
      request(projectsResponseSchema, `${API_PATHS.projects}?integrationType=git&integrationName=github`),
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
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
