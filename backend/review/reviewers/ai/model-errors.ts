/**
 * Turns what the AI SDK throws into a ModelError with an exact reason, and decides which answers
 * are worth retrying. Messages reach the run's log and the settings page, and the base URL may be
 * anyone's server (docs/decisions/030-model-outbound-calls.md), so a message says what happened in
 * our own words, from the status or the kind of failure: never a server's text (its error body,
 * an HTML page, an echoed key) nor a redirect's target. The SDK's error, which holds the request
 * and response, is not kept as the cause.
 */
import { STATUS_CODES } from "node:http";
import { APICallError } from "ai";
import { type AddressClass, OutboundAddressError } from "../../../net/outbound-address.ts";
import { ModelError, type ModelUsage } from "./model-provider.ts";

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
  if (status < 400) return "redirected" as const;
  if (status === 429) return "rate_limited" as const;
  if (status >= 500) return "server_error" as const;
  if (status === 401 || status === 403) return "unauthorized" as const;
  return "bad_request" as const;
};

const ADDRESS_WORDS: Record<Exclude<AddressClass, "public">, string> = {
  metadata: "a cloud metadata address",
  "link-local": "link-local",
  reserved: "reserved (not a unicast address)",
  loopback: "loopback",
  private: "on a private network",
};

/** Network failures by their Node error code, in words; other codes are "the connection failed". */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "the connection was refused",
  ENOTFOUND: "its host name does not resolve",
  EAI_AGAIN: "its host name could not be resolved now",
  ECONNRESET: "the connection was closed",
  EPIPE: "the connection was closed",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "its host cannot be reached",
  ENETUNREACH: "its network cannot be reached",
};

/** The first of `error` and its causes that `match` accepts. */
function inChain<T>(error: unknown, match: (candidate: unknown) => candidate is T): T | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    if (match(current)) return current;
  }
  return undefined;
}

const hasCode = (candidate: unknown): candidate is { code: string } =>
  typeof (candidate as { code?: unknown }).code === "string";

function networkWords(error: unknown): string {
  const code = inChain(error, hasCode)?.code;
  if (code === undefined) return "the connection failed";
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return "its TLS certificate was not accepted";
  return NETWORK_WORDS[code] ?? "the connection failed";
}

const originOf = (url: string | null | undefined): string | undefined =>
  url ? (URL.parse(url)?.origin ?? undefined) : undefined;

/** Why a base URL's address is refused, in the words the test answer and a refused save give. */
export function refusedAddressMessage(addressClass: Exclude<AddressClass, "public">): string {
  const never = addressClass !== "loopback" && addressClass !== "private";
  return (
    `The model server's address is ${ADDRESS_WORDS[addressClass]}, ` +
    (never
      ? "which is never called"
      : "which this deployment does not call (AI_MODEL_ALLOW_PRIVATE_ADDRESSES)")
  );
}

export interface FailureContext {
  /** The settings' base URL, to name the server when the SDK's error does not. */
  baseUrl: string | null;
  /** Tokens already spent by this review (a first answer before a failed repair request). */
  usage: ModelUsage;
  /** Whether our own deadline fired, and after how long. */
  timedOutAfterMs: number | undefined;
  /** Whether the caller's signal aborted the request. */
  cancelled: boolean;
}

export const toModelError = (error: unknown, context: FailureContext): ModelError => {
  const { usage } = context;
  const fail = (failure: ModelError["failure"], message: string, retryAfter?: number) =>
    new ModelError(failure, message, { usage, retryAfterSeconds: retryAfter });

  if (error instanceof ModelError) return error;
  if (context.timedOutAfterMs !== undefined) {
    const seconds = Number((context.timedOutAfterMs / 1000).toFixed(1));
    return fail("timeout", `The model server did not answer within ${seconds} s`);
  }
  if (context.cancelled) return fail("timeout", "The model request was cancelled before the model answered");
  const refused = inChain(
    error,
    (candidate): candidate is OutboundAddressError => candidate instanceof OutboundAddressError,
  );
  if (refused) return fail("address_refused", refusedAddressMessage(refused.addressClass));
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  // A 2xx whose body is not the provider's answer (a base URL pointing elsewhere) is read below.
  if (status !== undefined && status >= 300) {
    const retryAfter =
      status === 429 && APICallError.isInstance(error) ? retryAfterSeconds(error.responseHeaders) : undefined;
    const wait = retryAfter === undefined ? "" : `; retry after ${retryAfter} s`;
    const redirect = status < 400 ? "; redirects are not followed" : "";
    // What a 404 most often means, since the server's own words are not shown: a model name the
    // server does not have (Ollama, OpenAI), or a base URL without the API's path (`/v1`).
    const notFound = status === 404 ? "; check the model's name and the base URL" : "";
    return fail(
      statusFailure(status),
      `The model server answered ${status} ${STATUS_CODES[status] ?? ""}`.trimEnd() +
        wait +
        redirect +
        notFound,
      retryAfter,
    );
  }
  if (status === undefined && (APICallError.isInstance(error) || inChain(error, hasCode))) {
    const origin = originOf(APICallError.isInstance(error) ? error.url : null) ?? originOf(context.baseUrl);
    const where = origin ? ` at ${origin}` : "";
    return fail("unreachable", `Could not reach the model server${where}: ${networkWords(error)}`);
  }
  return fail("server_error", "The model server's answer is not in the provider's format");
};
