/** Liveness (the process answers) and readiness (it should get traffic: not while shutting down). */
import { Router } from "express";

export interface Readiness {
  shuttingDown: boolean;
}

export function healthRoutes(readiness: Readiness): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  router.get("/readyz", (_req, res) => {
    if (readiness.shuttingDown) {
      res.status(503).set("Cache-Control", "no-store").json({ status: "shutting_down" });
      return;
    }
    res.set("Cache-Control", "no-store").json({ status: "ready" });
  });
  return router;
}
