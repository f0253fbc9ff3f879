/**
 * Ingest: a verified webhook delivery becomes a queued review run, once. In one transaction the
 * delivery id (and a GitHub body's digest) is recorded (a redelivery or a replayed body changes
 * nothing), the repository is mapped to its project and organisation, the pull request's title is
 * recorded when the event gives it, the run is queued or the event folded into the pull request's
 * queued run, and the job is sent. A rename only records the title. Events for repositories we do
 * not know are acknowledged and recorded as ignored.
 */
import type { Db } from "../../db/database.ts";
import type { BotCommand, ReviewTrigger } from "../model.ts";
import { type PullRequestRef, updatePullRequest } from "../queue/pull-requests.ts";
import type { ReviewQueue } from "../queue/queue.ts";
import { announceRunChange } from "../queue/run-events.ts";
import { queueRun } from "../queue/runs.ts";

/** A repository as an event names it: the integration, its connection key when it has one, the id. */
export interface RepositoryRef {
  integration: string;
  /** GitHub: the installation id. Azure DevOps connections share one key, so it is not matched. */
  key?: string | undefined;
  /** Azure DevOps: the organisation whose service hook the event came through. */
  orgId?: string | undefined;
  externalId: string;
}

/**
 * The pull request's title and link as the event gives them, so that a queued run is listed by its
 * title before the worker reads the pull request (which records them again, as they are then).
 */
export interface PullRequestLabel {
  title: string;
  url?: string | undefined;
}

/** What a code host's event asks of the review engine, read from its payload. */
export type ReviewEvent =
  | {
      kind: "review";
      repository: RepositoryRef;
      pullRequest: number;
      trigger: ReviewTrigger;
      command?: BotCommand | undefined;
      headSha?: string | undefined;
      baseSha?: string | undefined;
      label?: PullRequestLabel | undefined;
    }
  /** The pull request was renamed: its new title, for the run pages; nothing to review. */
  | { kind: "label"; repository: RepositoryRef; pullRequest: number; label: PullRequestLabel }
  | { kind: "ignored"; reason: string };

export type IngestOutcome =
  | { outcome: "duplicate" }
  | { outcome: "ignored"; reason: string }
  | { outcome: "labelled" }
  | { outcome: "queued" | "coalesced"; runId: string; orgId: string };

/**
 * The active project of the repository, of the organisation the event came through when it names
 * one; else the oldest if several organisations imported it.
 */
async function projectOf(trx: Db, repository: RepositoryRef) {
  let query = trx
    .selectFrom("projects")
    .select(["id", "org_id"])
    .where("integration_name", "=", repository.integration)
    .where("external_id", "=", repository.externalId)
    .where("active", "=", true);
  if (repository.key !== undefined) query = query.where("integration_key", "=", repository.key);
  if (repository.orgId !== undefined) query = query.where("org_id", "=", repository.orgId);
  return query.orderBy("created_at").orderBy("id").limit(1).executeTakeFirst();
}

function recordLabel(trx: Db, ref: PullRequestRef, { title, url }: PullRequestLabel) {
  return updatePullRequest(trx, ref, url ? { title, url } : { title });
}

async function takeIn(
  trx: Db,
  queue: ReviewQueue,
  deliveryId: string,
  event: ReviewEvent,
): Promise<Exclude<IngestOutcome, { outcome: "duplicate" }>> {
  if (event.kind === "ignored") return { outcome: "ignored", reason: event.reason };
  const project = await projectOf(trx, event.repository);
  if (!project) return { outcome: "ignored", reason: "unknown repository" };
  if (event.kind === "label") {
    await recordLabel(trx, { projectId: project.id, pullRequest: event.pullRequest }, event.label);
    return { outcome: "labelled" };
  }
  const { runId, created } = await queueRun(trx, {
    orgId: project.org_id,
    projectId: project.id,
    pullRequest: event.pullRequest,
    trigger: event.trigger,
    command: event.command,
    headSha: event.headSha,
    baseSha: event.baseSha,
    deliveryId,
  });
  if (event.label) {
    await recordLabel(trx, { projectId: project.id, pullRequest: event.pullRequest }, event.label);
  }
  if (!created) return { outcome: "coalesced", runId, orgId: project.org_id };
  await queue.enqueue(trx, { runId, projectId: project.id, pullRequest: event.pullRequest });
  return { outcome: "queued", runId, orgId: project.org_id };
}

const outcomeText = (result: IngestOutcome) =>
  result.outcome === "ignored" ? `ignored: ${result.reason}` : result.outcome;

/**
 * A delivery as it is recorded: the code host's id of it and, for a signed body (GitHub), the
 * body's SHA-256, since the signature does not cover the id.
 */
export interface Delivery {
  id: string;
  event: string;
  payloadDigest?: string | undefined;
}

/**
 * Records a delivery; false when it was recorded before: the same id (a redelivery) or the same
 * signed body under another id (a replay).
 */
export async function recordDelivery(trx: Db, delivery: Delivery): Promise<boolean> {
  const first = await trx
    .insertInto("webhook_deliveries")
    .values({ id: delivery.id, event: delivery.event, payload_digest: delivery.payloadDigest ?? null })
    // Either unique key, the id or the digest.
    .onConflict((conflict) => conflict.doNothing())
    .returning("id")
    .executeTakeFirst();
  return first !== undefined;
}

/** Records the delivery and takes its event in, in `trx`; `duplicate` when it was recorded before. */
export async function ingestDelivery(
  trx: Db,
  queue: ReviewQueue,
  delivery: Delivery,
  event: ReviewEvent,
): Promise<IngestOutcome> {
  if (!(await recordDelivery(trx, delivery))) return { outcome: "duplicate" };
  const result = await takeIn(trx, queue, delivery.id, event);
  await trx
    .updateTable("webhook_deliveries")
    .set({ outcome: outcomeText(result) })
    .where("id", "=", delivery.id)
    .execute();
  return result;
}

/** ingestDelivery in a transaction of its own; the run screens hear of the run once it is committed. */
export async function ingest(
  db: Db,
  queue: ReviewQueue,
  delivery: Delivery,
  event: ReviewEvent,
): Promise<IngestOutcome> {
  const result = await db.transaction().execute((trx) => ingestDelivery(trx, queue, delivery, event));
  if (result.outcome === "queued" || result.outcome === "coalesced") {
    announceRunChange({ orgId: result.orgId, runId: result.runId });
  }
  return result;
}
