import { withRecovery } from "../../lib/stale-build";

/**
 * The /auth calls, kept off the first load: no page imports them statically; they
 * are fetched when a visitor starts to sign in or out (docs/decisions/006-page-weight.md). The
 * module system fetches the chunk once and keeps it.
 */
export function loadAuthApi() {
  return withRecovery(import("./auth-api"));
}

/** Starts fetching the calls as a visitor starts to fill a form in (a failure is left to its submit). */
export function warmUpAuthApi(): void {
  import("./auth-api").catch(() => {});
}
