/**
 * The two /auth routes the gateway answers itself: who is signed in, and sign-out. Everything else
 * under /auth goes to the backend.
 */
import { Router } from "express";
import { API_PATHS } from "../shared/contract.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { type SessionCookie, sessionOf, sessionTokenOf, sessionUndecided } from "./session.ts";
import type { SessionStatusChecker } from "./session-status.ts";

const REVOKE_TIMEOUT_MS = 3000;

export function gatewayAuthRoutes(
  config: GatewayConfig,
  deps: { status: SessionStatusChecker; cookie: SessionCookie },
) {
  const router = Router({ caseSensitive: true, strict: true });

  router.get(API_PATHS.session, (_req, res) => {
    if (sessionUndecided(res)) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
    res.set("Cache-Control", "no-store").json({ user: sessionOf(res)?.user ?? null });
  });

  // The cookie is cleared whatever the backend says, so sign-out works even when it is down. This
  // instance refuses the session from now on; others learn it from the backend within seconds.
  router.post(API_PATHS.logout, async (req, res) => {
    const session = sessionOf(res);
    const token = sessionTokenOf(req);
    if (session) deps.status.ended(session.claims);
    deps.cookie.clear(req, res);
    if (token) {
      try {
        await fetch(`${config.backendUrl}${API_PATHS.logout}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "x-request-id": String(req.id) },
          signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
        });
      } catch (error) {
        req.log.warn(
          { err: { message: (error as Error).message } },
          "session revoke failed; cookie cleared anyway",
        );
      }
    }
    res.status(204).end();
  });

  return router;
}
