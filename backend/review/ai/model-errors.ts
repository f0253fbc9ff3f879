/**
 * Turns what the AI SDK throws into a ModelError with an exact reason, and decides which answers
 * are worth retrying. Messages may reach the run's log and the settings page, so the API key is cut
 * out of every one (some servers echo the key they refused), and the SDK's error, which holds the
 * request and response, is not kept as the cause.
 */
import { STATUS_CODES } from "node:http";
import { APICallError } from "ai";
import { ModelError, type ModelUsage } from "./model-provider.ts";

/** How much of a server's own error message a ModelError repeats. */
const SERVER_MESSAGE_MAX = 300;

export const redactKey = (text: string, apiKey: string | null): string =>
  apiKey ? text.split(apiKey).join("[redacted]") : text;

/** Seconds a `retry-after` header asks for (seconds or an HTTP date), rounded up; undefined if none. */
export const retryAfterSeconds = (headers: Record<string, string> | undefined): number | undefined => {
  const value = headers?.["retry-after"]?.trim();
  if (!value) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isNaN(seconds) ? undefined : Math.max(0, Math.ceil(seconds));
};

/** 429 and 5xx answers may succeed when asked again; other answers will not. */
export const isRetryable = (error: unknown): error is APICallError =>
  APICallError.isInstance(error) &&
  error.statusCode !== undefined &&
  (error.statusCode === 429 || error.statusCode >= 500);

const statusFailure = (status: number) => {
  if (status === 429) return "rate_limited" as const;
  if (status >= 500) return "server_error" as const;
  if (status === 401 || status === 403) return "unauthorized" as const;
  return "bad_request" as const;
};

const serverMessage = (error: APICallError): string => {
  const message = error.message.trim();
  return message.length > SERVER_MESSAGE_MAX ? `${message.slice(0, SERVER_MESSAGE_MAX)}…` : message;
};

export interface FailureContext {
  apiKey: string | null;
  /** Tokens already spent by this review (a first answer before a failed repair request). */
  usage: ModelUsage;
  /** Whether our own deadline fired, and after how long. */
  timedOutAfterMs: number | undefined;
  /** Whether the caller's signal aborted the request. */
  cancelled: boolean;
}

export const toModelError = (error: unknown, context: FailureContext): ModelError => {
  const { apiKey, usage } = context;
  const fail = (failure: ModelError["failure"], message: string, retryAfter?: number) =>
    new ModelError(failure, redactKey(message, apiKey), { usage, retryAfterSeconds: retryAfter });

  if (error instanceof ModelError) return error;
  if (context.timedOutAfterMs !== undefined) {
    const seconds = Number((context.timedOutAfterMs / 1000).toFixed(1));
    return fail("timeout", `The model server did not answer within ${seconds} s`);
  }
  if (context.cancelled) return fail("timeout", "The model request was cancelled before the model answered");
  // A success status whose body is not the provider's answer (a base URL pointing elsewhere) is read below.
  if (APICallError.isInstance(error) && (error.statusCode === undefined || error.statusCode >= 400)) {
    const status = error.statusCode;
    if (status === undefined) {
      const origin = URL.canParse(error.url) ? new URL(error.url).origin : error.url;
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      return fail("unreachable", `Could not reach the model server at ${origin}: ${cause}`);
    }
    const retryAfter = status === 429 ? retryAfterSeconds(error.responseHeaders) : undefined;
    const wait = retryAfter === undefined ? "" : `; retry after ${retryAfter} s`;
    const detail = serverMessage(error);
    const said = detail && detail !== STATUS_CODES[status] ? `. It said: ${detail}` : "";
    return fail(
      statusFailure(status),
      `The model server answered ${status} ${STATUS_CODES[status] ?? ""}`.trimEnd() + wait + said,
      retryAfter,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail("server_error", `The model server's answer could not be read: ${message}`);
};
