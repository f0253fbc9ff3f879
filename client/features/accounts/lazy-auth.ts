/**
 * The /auth calls, kept off the first load: no page imports them statically; they
 * are fetched when a visitor starts to sign in or out (docs/decisions/006-page-weight.md). The
 * module system fetches the chunk once and keeps it.
 */
export function loadAuthApi() {
  return import("./auth-api");
}
