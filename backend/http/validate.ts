import * as v from "valibot";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import { HttpError } from "./errors.ts";

/** Parses a request part with a shared schema; a mismatch is a 400 naming each bad field. */
export function parseRequest<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  what = "request body",
): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const details = result.issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
  throw new HttpError(400, { error: `Invalid ${what}`, code: ERROR_CODES.invalidRequest, message: details });
}
