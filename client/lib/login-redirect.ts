/**
 * Where a visitor without a session is sent: /login, remembering the page (path and query) to come
 * back to after signing in. Plain code: the server's guards and the browser's calls share it.
 */
export function loginPathFor(page: string): string {
  return page === "/" || page === "" ? "/login" : `/login?${new URLSearchParams({ redirectTo: page })}`;
}

/**
 * The page a request is for. A client navigation asks for its data at `<page>.data` (`/_.data`
 * for the root) with a `_routes` parameter; the page is the path without them, as React Router
 * reads it.
 */
export function pageOfRequest(requestUrl: string): string {
  const url = new URL(requestUrl);
  const pathname = url.pathname.endsWith("/_.data")
    ? url.pathname.slice(0, -"_.data".length)
    : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return `${pathname}${search ? `?${search}` : ""}`;
}
