/**
 * Turning a backend call into a LoadResult (see load-result.server). Plain code, so the browser's
 * lazily loaded calls (settings-api) settle their loads the same way the server's loaders do.
 */
import { ApiError } from "./api-client.ts";
import type { LoadResult } from "./load-result.server";

/** The call's data, "unauthorized" on a 401, else `message` as an error. */
export async function settle<T>(call: Promise<T>, message: string): Promise<LoadResult<T>> {
  try {
    return { status: "ok", data: await call };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { status: "unauthorized" };
    return { status: "error", message };
  }
}

/** The call's answer, or null when the backend answers 404 (the page says it found nothing). */
export function nullOn404<T>(call: Promise<T>): Promise<T | null> {
  return call.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });
}
