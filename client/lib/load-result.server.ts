/**
 * Loading page data on the server (docs/architecture.md#rendering): the browser never calls the
 * backend for it, so the API client and zod stay out of the page's bundle. A loader hands the page a
 * promise that never rejects, so the outcomes the page must show (the data, an error with Retry, the
 * session gone) stream through one <Await> and keep their meaning (a rejected promise would lose the
 * HTTP status on the way).
 */
import { ApiError } from "../../shared/api-client.ts";

export type LoadResult<T> =
  | { status: "ok"; data: T }
  | { status: "error"; message: string }
  | { status: "unauthorized" };

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
