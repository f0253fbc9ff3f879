/**
 * POST /webhooks/azure-devops: Azure DevOps service hooks ("Web Hooks" consumer) for pull requests
 * created and updated and for pull-request comments. A hook proves itself with Basic auth whose
 * password is AZURE_DEVOPS_WEBHOOK_SECRET (any user name): service hooks offer Basic auth and
 * custom headers, and Basic auth's password is the field Azure DevOps keeps masked. Each event
 * (its `id`, the same on Azure DevOps' retries) takes effect once; it goes to the review engine's
 * ingest, and the answer is 202.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import express, { type Router } from "express";
import { API_PATHS } from "../../shared/contract.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { azureDevOpsReviewEvent, serviceHookEventSchema } from "../review/azure-devops-events.ts";
import { ingest } from "../review/ingest.ts";
import type { ReviewQueue } from "../review/queue.ts";

/** Pull-request resources with their comments and reviewers stay well under this. */
const WEBHOOK_BODY_LIMIT = "1mb";
/** Delivery ids are namespaced: GitHub's share the table. */
const DELIVERY_PREFIX = "ado:";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The Basic-auth password of the request, compared in constant time with the secret. */
function authorized(header: string | undefined, secret: string): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match?.[1]) return false;
  const credentials = Buffer.from(match[1], "base64").toString("utf8");
  const colon = credentials.indexOf(":");
  if (colon < 0) return false;
  return timingSafeEqual(digest(credentials.slice(colon + 1)), digest(secret));
}

export interface AzureDevOpsWebhookDeps {
  db: Db;
  webhookSecret: string | undefined;
  queue: ReviewQueue;
  productName: string;
}

export function azureDevOpsWebhooksRouter({
  db,
  webhookSecret,
  queue,
  productName,
}: AzureDevOpsWebhookDeps): Router {
  const router = strictRouter();
  router.post(
    API_PATHS.azureDevOpsWebhook,
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      if (!webhookSecret) {
        throw new HttpError(503, {
          error: "Azure DevOps webhooks are not configured (AZURE_DEVOPS_WEBHOOK_SECRET)",
        });
      }
      if (!authorized(req.get("authorization"), webhookSecret)) {
        throw new HttpError(401, { error: "Invalid webhook credentials" });
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "");
      } catch {
        throw new HttpError(400, { error: "Invalid JSON body" });
      }
      const event = serviceHookEventSchema.safeParse(body);
      if (!event.success) throw new HttpError(400, { error: "Not an Azure DevOps service hook event" });
      const result = await ingest(
        db,
        queue,
        { id: `${DELIVERY_PREFIX}${event.data.id}`, event: event.data.eventType },
        azureDevOpsReviewEvent(event.data, productName),
      );
      res
        .status(202)
        .json({ received: true, duplicate: result.outcome === "duplicate", outcome: result.outcome });
    },
  );
  return router;
}
