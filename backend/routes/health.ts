/** Liveness for load balancers and `npm start`: healthy only while the database answers. */
import type { Router } from "express";
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { strictRouter } from "../http/router.ts";

export function healthRouter(db: Db): Router {
  const router = strictRouter();
  router.get("/healthz", async (req, res) => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      req.log.error({ err: error }, "health check: database unavailable");
      res.status(503).json({ status: "unavailable" });
      return;
    }
    res.json({ status: "ok" });
  });
  return router;
}
