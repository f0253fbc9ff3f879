/**
 * The gateways' /auth rate limit, counted in the database so that every gateway in front of it
 * counts the same hits (docs/decisions/042-scale-out.md). Fixed windows aligned on the window's
 * length: each hit is one upsert on (key, window start). The route is for gateways only: the
 * gateway never forwards `/internal/*`, and the backend is not exposed to browsers.
 */
import type { Router } from "express";
import { sql } from "kysely";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type AuthRateLimitCount, authRateLimitHitSchema } from "../../shared/node/auth-rate-limit.ts";
import type { Db } from "../db/database.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

/** One hit in a hundred also deletes windows long over, so the table stays small. */
const SWEEP_ONE_IN = 100;

export async function countAuthHit(
  db: Db,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<AuthRateLimitCount> {
  const start = Math.floor(now / windowMs) * windowMs;
  const row = await db
    .insertInto("auth_rate_limit_windows")
    .values({ key, window_start: new Date(start), hits: 1 })
    .onConflict((oc) =>
      oc.columns(["key", "window_start"]).doUpdateSet({ hits: sql`auth_rate_limit_windows.hits + 1` }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  if (Math.random() * SWEEP_ONE_IN < 1) {
    await db
      .deleteFrom("auth_rate_limit_windows")
      .where("window_start", "<", new Date(start - windowMs))
      .execute();
  }
  return { hits: row.hits, resetAt: start + windowMs };
}

export function authRateLimitRouter(db: Db): Router {
  const router = strictRouter();
  router.post(API_PATHS.authRateLimitHit, async (req, res) => {
    const hit = parseRequest(authRateLimitHitSchema, req.body);
    res.json(await countAuthHit(db, hit.key, hit.windowMs));
  });
  return router;
}
