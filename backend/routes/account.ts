/**
 * POST /api/user/update and POST /api/org/update: the name edit dialogs (docs/product.md#signed-in-layout).
 * Each changes a name of the caller's own session: their user, or their organisation. The next
 * refresh of the session token carries the new name (sessions re-read both on every check).
 */

import type { Router } from "express";
import type * as v from "valibot";
import {
  NAME_EDIT,
  nameUpdateRequestSchema,
  type nameUpdateResponseSchema,
} from "../../shared/contract/accounts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Db } from "../db/database.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

type NameUpdateResponse = v.InferOutput<typeof nameUpdateResponseSchema>;

export function accountRouter(db: Db): Router {
  const router = strictRouter();

  router.post(API_PATHS.userUpdate, async (req, res) => {
    const { name } = parseRequest(nameUpdateRequestSchema, req.body).updateData;
    const { user } = sessionOf(res);
    await db.updateTable("users").set({ name }).where("id", "=", user.id).execute();
    res.json({ success: true, message: NAME_EDIT.userNameUpdated } satisfies NameUpdateResponse);
  });

  router.post(API_PATHS.orgUpdate, async (req, res) => {
    const { name } = parseRequest(nameUpdateRequestSchema, req.body).updateData;
    const { org } = sessionOf(res);
    await db.updateTable("organizations").set({ name }).where("id", "=", org.id).execute();
    res.json({ success: true, message: NAME_EDIT.orgNameUpdated } satisfies NameUpdateResponse);
  });

  return router;
}
