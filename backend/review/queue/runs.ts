/**
 * Review runs and their decision log (review_runs, review_decisions). A run is created queued by
 * ingest, started and finished by the worker; every step of it appends to its decision log.
 */
import { sql } from "kysely";
import type { Finding } from "../../../shared/contract/reviews.ts";
import type { Db } from "../../db/database.ts";
import {
  type BotCommand,
  type FindingDelivery,
  isPosted,
  type NotPostedReason,
  type PostedDelivery,
  type ReviewRunOutcome,
  type ReviewTrigger,
} from "../model.ts";
import { type PullRequestRef, updatePullRequest } from "./pull-requests.ts";
import { announceRunChange } from "./run-events.ts";

/** A pull-request event of a known project, as ingest hands it to a run. */
export interface PullRequestEvent {
  orgId: string;
  projectId: string;
  pullRequest: number;
  trigger: ReviewTrigger;
  command?: BotCommand | undefined;
  /** Unknown for a comment command: the pipeline reads it from the code host. */
  headSha?: string | undefined;
  baseSha?: string | undefined;
  deliveryId: string;
}

/** A run as the worker hands it to the pipeline: everything is as the latest event left it. */
export interface ReviewJob {
  runId: string;
  orgId: string;
  projectId: string;
  pullRequest: number;
  trigger: ReviewTrigger;
  command: BotCommand | null;
  headSha: string | null;
  baseSha: string | null;
}

/** A failure reason is kept short: it is shown on screens, and messages may be long. */
const REASON_MAX = 500;

export async function recordDecision(
  db: Db,
  runId: string,
  step: string,
  outcome: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db
    .insertInto("review_decisions")
    .values({ run_id: runId, step, outcome, detail: JSON.stringify(detail) })
    .execute();
}

/**
 * Queues a run for the event, or folds the event into the pull request's queued run (coalescing):
 * that run then reviews this event's head. A command stays on the queued run when a push joins it;
 * a later command replaces it. `created` says whether a new run (and so a new job) is needed.
 */
export async function queueRun(
  trx: Db,
  event: PullRequestEvent,
): Promise<{ runId: string; created: boolean }> {
  const row = await trx
    .insertInto("review_runs")
    .values({
      org_id: event.orgId,
      project_id: event.projectId,
      pull_request: event.pullRequest,
      trigger: event.trigger,
      command: event.command ?? null,
      head_sha: event.headSha ?? null,
      base_sha: event.baseSha ?? null,
      delivery_id: event.deliveryId,
    })
    .onConflict((conflict) =>
      conflict
        .columns(["project_id", "pull_request"])
        // The partial index's predicate, as a literal: Postgres matches it when planning.
        .where(sql<boolean>`status = 'queued'`)
        .doUpdateSet({
          trigger: sql`excluded.trigger`,
          command: sql`coalesce(excluded.command, review_runs.command)`,
          head_sha: sql`coalesce(excluded.head_sha, review_runs.head_sha)`,
          base_sha: sql`coalesce(excluded.base_sha, review_runs.base_sha)`,
          delivery_id: sql`excluded.delivery_id`,
        }),
    )
    // xmax is 0 on a row this statement inserted, the updating transaction's id otherwise.
    .returning(["id", sql<boolean>`xmax = 0`.as("created")])
    .executeTakeFirstOrThrow();
  await recordDecision(trx, row.id, "event", row.created ? "queued" : "coalesced", {
    delivery: event.deliveryId,
    trigger: event.trigger,
    ...(event.command ? { command: event.command } : {}),
    ...(event.headSha ? { head_sha: event.headSha } : {}),
  });
  return { runId: row.id, created: row.created };
}

/**
 * Marks the run running and returns it, or undefined when it already ended (a job retried after
 * its run finished: nothing runs twice). A retried job finds its run running and takes it again.
 * Another run of the pull request still marked running lost its job (its worker died and the job
 * ran out of retries): the queue lets one job of a pull request be active, so it is marked failed.
 */
export async function startRun(db: Db, runId: string, attempt: number): Promise<ReviewJob | undefined> {
  const job = await db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom("review_runs")
      .selectAll()
      .where("id", "=", runId)
      .forUpdate()
      .executeTakeFirst();
    if (!run || (run.status !== "queued" && run.status !== "running")) return undefined;
    const abandoned = await trx
      .updateTable("review_runs")
      .set({ status: "failed", reason: "Abandoned: its worker stopped", finished_at: new Date() })
      .where("project_id", "=", run.project_id)
      .where("pull_request", "=", run.pull_request)
      .where("status", "=", "running")
      .where("id", "!=", runId)
      .returning("id")
      .execute();
    for (const { id } of abandoned)
      await recordDecision(trx, id, "run", "abandoned", { superseded_by: runId });
    await trx
      .updateTable("review_runs")
      .set({ status: "running", started_at: new Date() })
      .where("id", "=", runId)
      .execute();
    await recordDecision(trx, runId, "run", "started", { attempt, head_sha: run.head_sha });
    return {
      runId: run.id,
      orgId: run.org_id,
      projectId: run.project_id,
      pullRequest: run.pull_request,
      trigger: run.trigger,
      command: run.command,
      headSha: run.head_sha,
      baseSha: run.base_sha,
    };
  });
  if (job) announceRunChange({ orgId: job.orgId, runId });
  return job;
}

/**
 * The commits a run reviews, once the pipeline has read the pull request: a run queued without
 * them (Review again, a bot command) shows the head it reviewed. A run that came with its event's
 * commits keeps them.
 */
export async function recordRunCommits(
  db: Db,
  runId: string,
  commits: { headSha: string; baseSha: string },
): Promise<void> {
  await db
    .updateTable("review_runs")
    .set({
      head_sha: sql`coalesce(head_sha, ${commits.headSha})`,
      base_sha: sql`coalesce(base_sha, ${commits.baseSha})`,
    })
    .where("id", "=", runId)
    .execute();
}

/** Ends a running run with the pipeline's outcome and logs it. */
export async function finishRun(db: Db, runId: string, outcome: ReviewRunOutcome): Promise<void> {
  const ended =
    outcome.status === "succeeded" ? outcome : { ...outcome, reason: outcome.reason.slice(0, REASON_MAX) };
  const finished = await db.transaction().execute(async (trx) => {
    const finished = await trx
      .updateTable("review_runs")
      .set({
        status: ended.status,
        finished_at: new Date(),
        ...(ended.status === "succeeded"
          ? { findings_total: ended.findingsTotal, findings_posted: ended.findingsPosted }
          : { reason: ended.reason }),
      })
      .where("id", "=", runId)
      .where("status", "=", "running")
      .returning("org_id")
      .executeTakeFirst();
    if (finished) await recordDecision(trx, runId, "run", ended.status, { ...ended });
    return finished;
  });
  if (finished) announceRunChange({ orgId: finished.org_id, runId });
}

/** The project a run reviews; undefined when it was deleted since. */
export function runProject(db: Db, projectId: string) {
  return db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirst();
}

/** Whether the run's log already has this step and outcome (a run started again after a crash). */
export async function isLogged(db: Db, runId: string, step: string, outcome: string): Promise<boolean> {
  return (await loggedDetail(db, runId, step, outcome)) !== undefined;
}

/** The detail of the run's log entry with this step and outcome (the first), if it has one. */
export async function loggedDetail(
  db: Db,
  runId: string,
  step: string,
  outcome: string,
): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom("review_decisions")
    .select("detail")
    .where("run_id", "=", runId)
    .where("step", "=", step)
    .where("outcome", "=", outcome)
    .orderBy("id")
    .executeTakeFirst();
  return row?.detail as Record<string, unknown> | undefined;
}

/** How many findings the run found (those it kept and those it did not), and how many it posted. */
export async function runFindingCounts(db: Db, runId: string) {
  const [rows, post] = await Promise.all([
    db.selectFrom("review_findings").select("delivery").where("run_id", "=", runId).execute(),
    db
      .selectFrom("review_decisions")
      .select("detail")
      .where("run_id", "=", runId)
      .where("step", "=", "post")
      .where("outcome", "in", ["posted", "shadow"])
      .executeTakeFirst(),
  ]);
  const notKept = post?.detail.not_kept;
  return {
    findingsTotal: rows.length + (typeof notKept === "number" ? notKept : 0),
    findingsPosted: rows.filter((row) => isPosted(row.delivery)).length,
  };
}

/**
 * The most findings a run keeps. A pull request can hold thousands of hits of one rule (a pasted
 * dump, a generated file under another name): kept whole they made the run's page megabytes and
 * its one insert could pass Postgres's limit of 65,535 parameters. Posting is capped far below
 * (max_findings, at most 50), so nothing posted is ever left out.
 */
export const RUN_FINDINGS_KEPT_MAX = 200;

/**
 * What a run keeps of its findings, in their order: every one it posted (or in shadow mode would
 * have), then the others in that order, which is the most severe first, up to RUN_FINDINGS_KEPT_MAX.
 */
export function findingsToKeep(findings: readonly RecordedFinding[]): RecordedFinding[] {
  if (findings.length <= RUN_FINDINGS_KEPT_MAX) return [...findings];
  const delivered = (recorded: RecordedFinding) =>
    isPosted(recorded.delivery) || recorded.shadowDelivery !== null;
  let room = RUN_FINDINGS_KEPT_MAX - findings.filter(delivered).length;
  return findings.filter((recorded) => delivered(recorded) || room-- > 0);
}

/** Whether the pull request's latest review was made in shadow mode (and posted nothing). */
export async function lastReviewInShadow(db: Db, ref: PullRequestRef): Promise<boolean> {
  const last = await db
    .selectFrom("review_decisions as decision")
    .innerJoin("review_runs as run", "run.id", "decision.run_id")
    .select("decision.outcome")
    .where("run.project_id", "=", ref.projectId)
    .where("run.pull_request", "=", ref.pullRequest)
    .where("decision.step", "=", "post")
    .where("decision.outcome", "in", ["posted", "shadow"])
    .orderBy("decision.id", "desc")
    .executeTakeFirst();
  return last?.outcome === "shadow";
}

/** A finding of a run and where it went. */
export interface RecordedFinding {
  finding: Finding;
  delivery: FindingDelivery;
  /** Where a shadow finding would have gone; null otherwise. */
  shadowDelivery: PostedDelivery | null;
  /** Why a finding was not posted; absent for any other delivery. */
  notPostedReason?: NotPostedReason | undefined;
}

/** The run's findings, the pull request's last reviewed head and the `post` step, in one transaction. */
export async function recordPost(
  db: Db,
  runId: string,
  post: { ref: PullRequestRef; head: string; findings: RecordedFinding[] },
  outcome: "posted" | "shadow",
  detail: Record<string, number>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (post.findings.length) {
      await trx
        .insertInto("review_findings")
        .values(
          post.findings.map(({ finding, delivery, shadowDelivery, notPostedReason }) => ({
            run_id: runId,
            fingerprint: finding.fingerprint,
            delivery,
            shadow_delivery: shadowDelivery,
            not_posted_reason: notPostedReason ?? null,
            finding: JSON.stringify(finding),
          })),
        )
        .onConflict((conflict) => conflict.columns(["run_id", "fingerprint"]).doNothing())
        .execute();
    }
    await updatePullRequest(trx, post.ref, { last_reviewed_sha: post.head });
    await recordDecision(trx, runId, "post", outcome, detail);
  });
}
