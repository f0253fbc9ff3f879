import type { z } from "zod";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import { HttpError } from "./errors.ts";

/** Parses a request part with a shared schema; a mismatch is a 400 naming each bad field. */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what = "request body",
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
  throw new HttpError(400, { error: `Invalid ${what}`, code: ERROR_CODES.invalidRequest, message: details });
}
