/**
 * GET /auth/outbox: the local outbox's e-mails (mail/outbox.ts). Mounted only when the outbox is the
 * mail transport, which config.ts allows only in local mode or outside production: everyone who
 * reaches it can read every verification and reset link.
 */
import type { Router } from "express";
import type { OutboxResponse } from "../../shared/contract/accounts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { Db } from "../db/database.ts";
import { strictRouter } from "../http/router.ts";
import { outboxMessages } from "../mail/outbox.ts";

export function outboxRouter(db: Db): Router {
  const router = strictRouter();
  router.get(API_PATHS.outbox, async (_req, res) => {
    res.json({ messages: await outboxMessages(db) } satisfies OutboxResponse);
  });
  return router;
}
