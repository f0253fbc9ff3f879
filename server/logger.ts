/**
 * One pino logger for the gateway. Request logs carry only id, method, path (never the query, which
 * can hold one-time codes), status and duration; credentials are redacted wherever they might appear.
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type DestinationStream, type Logger, pino } from "pino";
import { pinoHttp } from "pino-http";

export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "headers.authorization",
  "headers.cookie",
  "token",
  "password",
  "idToken",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, destination);
}

const SAFE_REQUEST_ID = /^[\w-]{8,64}$/;

/** A request id from a trusted proxy in front of us is kept; otherwise we make one. */
function requestIdFor(req: IncomingMessage, trustUpstreamId: boolean): string {
  const incoming = req.headers["x-request-id"];
  if (trustUpstreamId && typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID();
}

export function pathOf(url: string | undefined): string {
  return (url ?? "/").split("?")[0] ?? "/";
}

export function createHttpLogger(logger: Logger, trustUpstreamId: boolean) {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const id = requestIdFor(req, trustUpstreamId);
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      // Receives pino's standard request object, whose url is the original URL.
      req: (req: { id?: string; method?: string; url?: string }) => ({
        id: req.id,
        method: req.method,
        path: pathOf(req.url),
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    customSuccessMessage: (req, res, responseTime) =>
      `${req.method} ${pathOf((req as { originalUrl?: string }).originalUrl ?? req.url)} ${res.statusCode} ${Math.round(responseTime)}ms`,
    customErrorMessage: (req, res) =>
      `${req.method} ${pathOf((req as { originalUrl?: string }).originalUrl ?? req.url)} ${res.statusCode} failed`,
    // Health probes hit every few seconds; logging them drowns the useful lines.
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
  });
}
