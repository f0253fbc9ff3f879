/**
 * POST /webhooks/github: GitHub's deliveries for the App. Only a delivery signed with
 * GITHUB_WEBHOOK_SECRET (X-Hub-Signature-256) is read, and each delivery takes effect once: once
 * per X-GitHub-Delivery, and once per signed body, which the signature covers and the id does not
 * (a body replayed under a new id changes nothing). Installation events keep integrations and projects true: an uninstalled or
 * suspended installation makes its integration inactive, added and removed repositories become
 * projects or stop being ones (200). Pull-request and comment events go to the review engine's
 * ingest, which queues a review run (202: accepted, reviewed later).
 */
import { createHash } from "node:crypto";
import { Webhooks } from "@octokit/webhooks";
import express, { type Router } from "express";
import { API_PATHS } from "../../../shared/contract/common.ts";
import type { BackendConfig } from "../../config.ts";
import type { Db } from "../../db/database.ts";
import { HttpError } from "../../http/errors.ts";
import { strictRouter } from "../../http/router.ts";
import { ingest, recordDelivery } from "../../review/ingest/ingest.ts";
import type { ReviewQueue } from "../../review/queue/queue.ts";
import { GITHUB_INTEGRATION } from "../catalogue.ts";
import { codeHostFailure } from "../failures.ts";
import { importRepositories } from "../setup.ts";
import { isObject } from "./api-client.ts";
import type { CommandAccess } from "./command-access.ts";
import { repositoriesOf } from "./connect.ts";
import { GITHUB_REVIEW_EVENTS, githubReviewEvent } from "./events.ts";

/**
 * GitHub caps payloads at 25 MB; ours are small (installation events, pull requests and comments,
 * whose texts GitHub caps at 65,536 characters).
 */
const WEBHOOK_BODY_LIMIT = "1mb";
const DELIVERY_ID_MAX = 128;

/** The body, once its signature is checked, and its SHA-256 (hex): the same body counts once. */
async function signedBody(
  webhooks: Webhooks,
  body: unknown,
  signature: string | undefined,
): Promise<{ text: string; digest: string }> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const text = bytes.toString("utf8");
  const valid = signature ? await webhooks.verify(text, signature).catch(() => false) : false;
  if (!valid) throw new HttpError(401, { error: "Invalid webhook signature" });
  return { text, digest: createHash("sha256").update(bytes).digest("hex") };
}

/** The organisations whose GitHub integration is this installation. */
async function organisationsOf(trx: Db, installationId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom("integrations")
    .select("org_id")
    .where("name", "=", GITHUB_INTEGRATION)
    .where("integration_key", "=", installationId)
    .execute();
  return rows.map((row) => row.org_id);
}

async function apply(trx: Db, event: string, payload: Record<string, unknown>, webUrl: string) {
  const installation = isObject(payload.installation) ? payload.installation : undefined;
  if (typeof installation?.id !== "number") return;
  const installationId = String(installation.id);

  if (event === "installation" && (payload.action === "deleted" || payload.action === "suspend")) {
    await trx
      .updateTable("integrations")
      .set({ is_active: false, updated_at: new Date() })
      .where("name", "=", GITHUB_INTEGRATION)
      .where("integration_key", "=", installationId)
      .execute();
    await trx
      .updateTable("projects")
      .set({ active: false })
      .where("integration_name", "=", GITHUB_INTEGRATION)
      .where("integration_key", "=", installationId)
      .execute();
    return;
  }
  if (event !== "installation_repositories") return;
  const added = repositoriesOf(payload.repositories_added, webUrl);
  const removed = repositoriesOf(payload.repositories_removed, webUrl).map((repository) => repository.id);
  for (const orgId of await organisationsOf(trx, installationId)) {
    await importRepositories(trx, orgId, { name: GITHUB_INTEGRATION, key: installationId }, added, false);
    if (removed.length > 0) {
      await trx
        .deleteFrom("projects")
        .where("org_id", "=", orgId)
        .where("integration_name", "=", GITHUB_INTEGRATION)
        .where("external_id", "in", removed)
        .execute();
    }
  }
}

export interface WebhookDeps {
  db: Db;
  github: BackendConfig["github"];
  queue: ReviewQueue;
  productName: string;
  /** Who may command the bot (the GitHub App's permission check); undefined: nobody. */
  commandAccess?: CommandAccess | undefined;
}

export function webhooksRouter({ db, github, queue, productName, commandAccess }: WebhookDeps): Router {
  const router = strictRouter();
  const webhooks = github.webhookSecret ? new Webhooks({ secret: github.webhookSecret }) : undefined;

  // The signature covers the exact bytes, so this route reads the raw body, not parsed JSON.
  router.post(
    API_PATHS.githubWebhook,
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      if (!webhooks) {
        throw new HttpError(503, { error: "GitHub webhooks are not configured (GITHUB_WEBHOOK_SECRET)" });
      }
      const { text, digest } = await signedBody(webhooks, req.body, req.get("x-hub-signature-256"));
      const delivery = req.get("x-github-delivery");
      const event = req.get("x-github-event");
      if (!delivery || delivery.length > DELIVERY_ID_MAX || !event) {
        throw new HttpError(400, { error: "X-GitHub-Delivery and X-GitHub-Event are required" });
      }
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        throw new HttpError(400, { error: "Invalid JSON body" });
      }
      if (!isObject(payload)) throw new HttpError(400, { error: "Invalid JSON body" });

      if (GITHUB_REVIEW_EVENTS.has(event)) {
        // Before the delivery is recorded: when GitHub cannot be asked, the delivery fails unrecorded
        // and a redelivery (same id, same body) is taken in anew.
        const review = await githubReviewEvent(event, payload, { productName, commandAccess }).catch(
          (error: unknown) => {
            throw codeHostFailure(error);
          },
        );
        const action = typeof payload.action === "string" ? `.${payload.action}` : "";
        const result = await ingest(
          db,
          queue,
          { id: delivery, event: `${event}${action}`, payloadDigest: digest },
          review,
        );
        res
          .status(202)
          .json({ received: true, duplicate: result.outcome === "duplicate", outcome: result.outcome });
        return;
      }
      const applied = await db.transaction().execute(async (trx) => {
        if (!(await recordDelivery(trx, { id: delivery, event, payloadDigest: digest }))) return false;
        await apply(trx, event, payload, github.oauthUrl);
        return true;
      });
      res.json({ received: true, duplicate: !applied });
    },
  );

  return router;
}
