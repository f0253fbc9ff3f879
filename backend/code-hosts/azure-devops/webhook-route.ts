/**
 * POST /webhooks/azure-devops/{hook id}: an Azure DevOps integration's service hooks ("Web Hooks"
 * consumer) for pull requests created and updated and for pull-request comments
 * (docs/decisions/028-azure-devops-tenancy.md). The hook id names the integration; its Basic auth
 * password (any user name) must be that integration's hook secret: service hooks offer Basic auth
 * and custom headers, and Basic auth's password is the field Azure DevOps keeps masked. An event
 * counts only for that integration's organisation, project and repositories. A bot command is
 * obeyed only from someone who may contribute to the repository, as Azure DevOps says with the
 * integration's token; a refused one is recorded with its reason. Each event (its `id`, the same on
 * Azure DevOps' retries) takes effect once; it goes to the review engine's ingest, and the answer
 * is 202.
 */
import express, { type Router } from "express";
import type { Logger } from "../../../shared/node/logging.ts";
import type { Db } from "../../db/database.ts";
import { HttpError } from "../../http/errors.ts";
import { strictRouter } from "../../http/router.ts";
import { ingest, type ReviewEvent } from "../../review/ingest/ingest.ts";
import type { ReviewQueue } from "../../review/queue/queue.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";
import { AZURE_DEVOPS_FIELDS } from "../catalogue.ts";
import { AzureDevOpsError, mayContribute } from "./connect.ts";
import { AZURE_DEVOPS_PROJECT_ID, readAzureDevOpsConnection } from "./connection.ts";
import { type AzureDevOpsEvent, azureDevOpsReviewEvent, serviceHookEventSchema } from "./events.ts";
import { basicAuthPassword, hookOf, hookSecretMatches } from "./service-hooks.ts";

/** Pull-request resources with their comments and reviewers stay well under this. */
const WEBHOOK_BODY_LIMIT = "1mb";
/** Delivery ids are namespaced: GitHub's share the table, and each hook's events are its own. */
const deliveryId = (hookId: string, eventId: string) => `ado:${hookId}:${eventId}`;
/** Express pattern of API_PATHS.azureDevOpsWebhook(hookId). */
const HOOK_PATH = "/webhooks/azure-devops/:hookId";

const invalid = () => new HttpError(401, { error: "Invalid webhook credentials" });

export interface AzureDevOpsWebhookDeps {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
  queue: ReviewQueue;
  productName: string;
}

export function azureDevOpsWebhooksRouter(deps: AzureDevOpsWebhookDeps): Router {
  const { db, queue, productName } = deps;

  /** The event as it will be taken in: a command from someone who may not contribute is refused. */
  async function permitted(orgId: string, read: AzureDevOpsEvent): Promise<ReviewEvent> {
    if (!read.commenter) return read.review;
    try {
      const connection = await readAzureDevOpsConnection(deps, orgId);
      if (!connection) return { kind: "ignored", reason: "command refused: the integration is not set up" };
      return (await mayContribute(connection, read.commenter))
        ? read.review
        : { kind: "ignored", reason: "command refused: the commenter may not contribute to the repository" };
    } catch (error) {
      // Fail closed: a command nobody could vouch for is not run.
      deps.logger.warn(
        { orgId, err: error instanceof AzureDevOpsError ? error.message : error },
        "azure devops: a command's permission could not be checked",
      );
      return { kind: "ignored", reason: "command refused: the commenter's permission could not be checked" };
    }
  }

  const router = strictRouter();
  router.post(HOOK_PATH, express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req, res) => {
    const hookId = req.params.hookId ?? "";
    const hook = await hookOf(db, hookId);
    const password = basicAuthPassword(req.get("authorization"));
    // An integration set up before hooks had secrets has no digest: refused until one is generated.
    if (!hook?.hook_secret_digest || password === undefined) throw invalid();
    if (!hookSecretMatches(password, hook.hook_secret_digest)) throw invalid();
    let body: unknown;
    try {
      body = JSON.parse(Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "");
    } catch {
      throw new HttpError(400, { error: "Invalid JSON body" });
    }
    const event = serviceHookEventSchema.safeParse(body);
    if (!event.success) throw new HttpError(400, { error: "Not an Azure DevOps service hook event" });
    const read = azureDevOpsReviewEvent(event.data, productName, {
      orgId: hook.org_id,
      organizationUrl: hook.properties[AZURE_DEVOPS_FIELDS.organizationUrl] ?? "",
      projectId: hook.properties[AZURE_DEVOPS_PROJECT_ID] ?? "",
    });
    const result = await ingest(
      db,
      queue,
      { id: deliveryId(hookId, event.data.id), event: event.data.eventType },
      await permitted(hook.org_id, read),
    );
    res
      .status(202)
      .json({ received: true, duplicate: result.outcome === "duplicate", outcome: result.outcome });
  });
  return router;
}
