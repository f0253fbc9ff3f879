/**
 * The typed API client. Server loaders use it with the bearer token from the verified cookie and
 * the backend's URL; browser code uses it with baseUrl "" so calls go to the same origin (cookie).
 */
import type { z } from "zod";
import { API_PATHS, errorBodySchema, projectsResponseSchema } from "./contract.ts";
import { ERRORS } from "./messages.ts";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, message: string, code?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  token?: string;
  requestId?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? fetch;

  async function request<S extends z.ZodType>(
    schema: S,
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.requestId) headers["x-request-id"] = options.requestId;
    let response: Response;
    try {
      response = await doFetch(`${options.baseUrl}${path}`, {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: options.signal,
        credentials: "same-origin",
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError(503, ERRORS.backendUnavailable, "UNAVAILABLE");
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const parsed = errorBodySchema.safeParse(json);
      const message = parsed.success ? (parsed.data.message ?? parsed.data.error) : response.statusText;
      throw new ApiError(response.status, message, parsed.success ? parsed.data.code : undefined);
    }
    return schema.parse(json);
  }

  return {
    request,
    getProjects: () =>
      request(projectsResponseSchema, `${API_PATHS.projects}?integrationType=git&integrationName=github`),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
