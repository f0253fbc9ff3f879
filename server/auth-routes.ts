/**
 * The /auth routes the gateway answers itself: who is signed in, renewing the session, and
 * sign-out. Everything else under /auth goes to the backend.
 */
import { Router } from "express";
import { API_PATHS } from "../shared/contract/common.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import {
  callFactsOf,
  type RenewDeps,
  renewSession,
  sessionOf,
  sessionTokenOf,
  sessionUndecided,
} from "./session.ts";

const REVOKE_TIMEOUT_MS = 3000;

export function gatewayAuthRoutes(config: GatewayConfig, deps: RenewDeps) {
  const router = Router({ caseSensitive: true, strict: true });

  router.get(API_PATHS.session, (_req, res) => {
    if (sessionUndecided(res)) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
    res.set("Cache-Control", "no-store").json({ user: sessionOf(res)?.user ?? null });
  });

  // Renews the session now, so a token minted before a change (a new user or organisation name)
  // gives way to one that carries it. Answers like GET, with the renewed user.
  router.post(API_PATHS.session, async (req, res) => {
    if (sessionUndecided(res)) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
    const session = sessionOf(res);
    if (!session) return sendError(res, 401, GATEWAY_ERRORS.noAuthToken);
    const renewed = await renewSession(callFactsOf(req), res, session, deps);
    if (renewed === "refused") {
      deps.cookie.clear(res, req.secure);
      return sendError(res, 401, GATEWAY_ERRORS.noAuthToken);
    }
    if (renewed === "unavailable") return sendError(res, 502, GATEWAY_ERRORS.upstreamUnavailable);
    // The other sessions of the organisation ask the backend for the names again at their next request.
    deps.status.forgetOrganization(renewed.claims.orgId);
    deps.status.live(renewed.claims);
    res.set("Cache-Control", "no-store").json({ user: renewed.user });
  });

  // The cookie is cleared whatever the backend says, so sign-out works even when it is down. This
  // instance refuses the session from now on; others learn it from the backend within seconds.
  router.post(API_PATHS.logout, async (req, res) => {
    const session = sessionOf(res);
    const token = sessionTokenOf(req);
    if (session) deps.status.ended(session.claims);
    deps.cookie.clear(res, req.secure);
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
