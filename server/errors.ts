/** The gateway's own error answers, in the contract's error shape {error, code?, message?}. */
import type { ServerResponse } from "node:http";
import { ERRORS } from "../shared/contract/accounts.ts";
import type { ErrorBody } from "../shared/contract/common.ts";
import { ERROR_CODES } from "../shared/contract/common.ts";

export const GATEWAY_ERRORS = {
  upstreamUnavailable: {
    error: "Bad gateway",
    code: ERROR_CODES.upstreamUnavailable,
    message: ERRORS.backendUnavailable,
  },
  upstreamTimeout: {
    error: "Gateway timeout",
    code: ERROR_CODES.upstreamTimeout,
    message: ERRORS.backendUnavailable,
  },
  upstreamInvalidSession: {
    error: "Bad gateway",
    code: ERROR_CODES.upstreamInvalidSession,
    message: ERRORS.backendAuthFailed,
  },
  sessionCheckUnavailable: {
    error: "Service unavailable",
    code: ERROR_CODES.sessionCheckUnavailable,
    message: ERRORS.backendUnavailable,
  },
  tooLarge: { error: "Payload too large", code: ERROR_CODES.payloadTooLarge },
  unsupportedEncoding: { error: "Unsupported content encoding", code: ERROR_CODES.unsupportedEncoding },
  invalidPath: { error: "Invalid path", code: ERROR_CODES.invalidPath },
  malformedBody: { error: "Malformed request body", code: ERROR_CODES.invalidRequest },
  noAuthToken: { error: ERRORS.noAuthToken },
  crossSite: { error: "Cross-site request refused", code: ERROR_CODES.csrf },
  rateLimited: {
    error: "Too many requests",
    code: ERROR_CODES.rateLimited,
    message: "Too many requests. Please try again later.",
  },
  tooManyStreams: {
    error: "Too many requests",
    code: ERROR_CODES.tooManyStreams,
    message: ERRORS.tooManyStreams.session,
  },
  internal: { error: "Internal server error" },
} as const satisfies Record<string, ErrorBody>;

/** Written on the plain response, so that Express routes and the proxied path answer alike. */
export function sendError(res: ServerResponse, status: number, body: ErrorBody): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, body);
}

/** A JSON answer that no cache keeps, on the plain response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}
