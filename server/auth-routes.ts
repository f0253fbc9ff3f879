/**
 * The two /auth routes the gateway answers itself: who is signed in, and sign-out. Everything else
 * under /auth goes to the backend.
 */
import { Router } from "express";
import { API_PATHS } from "../shared/contract.ts";
import type { GatewayConfig } from "./config.ts";
import { clearSessionCookie, sessionOf } from "./session.ts";

const REVOKE_TIMEOUT_MS = 3000;

export function gatewayAuthRoutes(config: GatewayConfig) {
  const router = Router();

  router.get(API_PATHS.session, (_req, res) => {
    res.set("Cache-Control", "no-store").json({ user: sessionOf(res)?.user ?? null });
  });

  // The cookie is cleared whatever the backend says, so sign-out works even when it is down.
  router.post(API_PATHS.logout, async (req, res) => {
    const session = sessionOf(res);
    clearSessionCookie(req, res);
    if (session) {
      try {
        await fetch(`${config.backendUrl}${API_PATHS.logout}`, {
          method: "POST",
          headers: { authorization: `Bearer ${session.token}`, "x-request-id": String(req.id) },
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
