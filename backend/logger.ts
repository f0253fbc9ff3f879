/**
 * Structured logs (pino) with a request id. Requests are logged as method, path and status only:
 * headers (authorization, cookie), query strings (one-time codes) and bodies (passwords, tokens)
 * never reach the log. The redact list is a second line of defence for objects logged by hand.
 */
import { randomUUID } from "node:crypto";
import pino, { type DestinationStream, type Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { BackendConfig } from "./config.ts";

export type { Logger };

const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.idToken",
  "*.token",
];

export function createLogger(
  config: Pick<BackendConfig, "logLevel">,
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      name: "backend",
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}

/** A caller-supplied id is kept only when it is short and plain, so it cannot forge log lines. */
const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const incoming = req.headers["x-request-id"];
      const id = typeof incoming === "string" && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split("?")[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return "error";
      return res.statusCode >= 400 ? "warn" : "info";
    },
  });
}
