/**
 * Routing is exact: case-sensitive, and a trailing slash makes another path. The gateway decides by
 * exact path (which answers carry a session token to turn into the cookie, which /api call is
 * public), so the backend must not answer `/auth/LOGIN` or `/auth/login/` as if it were
 * `/auth/login`. Every router of the backend comes from `strictRouter()`, and the app itself is
 * made strict with `strictRouting(app)` before its first route.
 */
import { type Express, Router } from "express";

export function strictRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}

/** Must run before the app's first `use` or route: Express reads these when it creates its router. */
export function strictRouting(app: Express): void {
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
}
