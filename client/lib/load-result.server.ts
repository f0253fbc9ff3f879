/**
 * Loading page data on the server (docs/architecture.md#rendering): the browser never calls the
 * backend for it, so the API client stays out of the page's bundle. A loader hands the page a
 * promise that never rejects, so the outcomes the page must show (the data, an error with Retry, the
 * session gone) stream through one <Await> and keep their meaning (a rejected promise would lose the
 * HTTP status on the way).
 */
export type LoadResult<T> =
  | { status: "ok"; data: T }
  | { status: "error"; message: string }
  | { status: "unauthorized" };

export { nullOn404, settle } from "./settle";
