/**
 * One error shape for every answer (`errorBodySchema`): handlers throw HttpError, and anything
 * else becomes a 500 whose details go to the log, never to the client.
 */
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { ErrorBody } from "../../shared/contract/common.ts";

export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(body.message ?? body.error);
    this.status = status;
    this.body = body;
  }
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ error: "Not found" } satisfies ErrorBody);
};

/** body-parser marks its own failures with `type` and an HTTP status. */
function bodyParserError(error: unknown): { status: number; body: ErrorBody } | undefined {
  if (typeof error !== "object" || error === null || !("type" in error)) return undefined;
  if (error.type === "entity.parse.failed") return { status: 400, body: { error: "Invalid JSON body" } };
  if (error.type === "entity.too.large") return { status: 413, body: { error: "Request body too large" } };
  if (error.type === "encoding.unsupported" || error.type === "charset.unsupported") {
    return { status: 415, body: { error: "Unsupported request encoding" } };
  }
  return undefined;
}

export const errorHandler: ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  const known =
    error instanceof HttpError ? { status: error.status, body: error.body } : bodyParserError(error);
  if (known) {
    res.status(known.status).json(known.body);
    return;
  }
  // pino-http logs `res.err` with the request's completion line.
  res.err = error instanceof Error ? error : new Error(String(error));
  res.status(500).json({ error: "Internal server error" } satisfies ErrorBody);
};
