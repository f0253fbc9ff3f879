/**
 * The review pipeline in process for tests: a migrated database with one project on the Pro trial,
 * pull request #7 on a memory host, runs queued as ingest would and worked as the queue's worker
 * would, and readers for what a run recorded. Used by backend/review/pipeline*.test.ts.
 */
import { expect } from "vitest";
import type { PullRequestInfo } from "../../backend/code-hosts/review-host.ts";
import { type Db, openDatabase } from "../../backend/db/database.ts";
import { migrateToLatest } from "../../backend/db/migrations.ts";
import type { BotCommand, ReviewTrigger } from "../../backend/review/model.ts";
import { queueRun } from "../../backend/review/queue/runs.ts";
import { type ReviewPipeline, reviewWorker } from "../../backend/review/queue/worker.ts";
import { PLAN_VALUES } from "../../shared/constants.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { freshDatabase, type TestDatabaseKind } from "./databases.ts";
import type { MemoryReviewHost } from "./memory-review-host.ts";
import { seedProject } from "./review-queue.ts";

/** The pull request every run reviews. */
export const PULL = 7;
export const PIPELINE_NOW = new Date("2026-11-20T12:00:00Z");
const silent = createLogger({ name: "test", level: "silent" });

export interface PipelineDatabase {
  db: Db;
  drop: () => Promise<void>;
  orgId: string;
  projectId: string;
}

/** A fresh, migrated database with one project whose organisation is on the Pro trial. */
export async function openPipelineDatabase(kind: TestDatabaseKind): Promise<PipelineDatabase> {
  const fresh = await freshDatabase(kind);
  const db = await openDatabase(fresh.target);
  await migrateToLatest(db);
  const { orgId, projectId } = await seedProject(db);
  await setPlan(db, orgId, PLAN_VALUES.proTrial);
  return { db, drop: fresh.drop, orgId, projectId };
}

/** Puts the organisation on a plan, trialing or active, replacing its subscription. */
export async function setPlan(
  db: Db,
  orgId: string,
  plan: string,
  options: { trialEnds?: Date; periodEnd?: Date } = {},
) {
  await db.deleteFrom("subscriptions").where("org_id", "=", orgId).execute();
  await db
    .insertInto("subscriptions")
    .values({
      org_id: orgId,
      plan_code: plan as never,
      status: plan === PLAN_VALUES.proTrial ? "trialing" : "active",
      seats_total: 5,
      trial_ends_at:
        plan === PLAN_VALUES.proTrial ? (options.trialEnds ?? new Date("2026-12-01T00:00:00Z")) : null,
      current_period_end:
        plan === PLAN_VALUES.paid ? (options.periodEnd ?? new Date("2026-12-15T00:00:00Z")) : null,
    })
    .execute();
}

/** Pull request #7 of acme/web by a person, open and ready, from `feature` into `main`. */
export function pullRequestInfo(title: string, headSha: string, baseSha: string): PullRequestInfo {
  return {
    number: PULL,
    title,
    url: `https://github.com/acme/web/pull/${PULL}`,
    author: { login: "Octocat", isBot: false },
    draft: false,
    state: "open",
    headSha,
    baseSha,
    headRef: "feature",
    baseRef: "main",
  };
}

export interface RunRequest {
  orgId: string;
  projectId: string;
  trigger: ReviewTrigger;
  command?: BotCommand;
  /** The head a push or open names; a command names none. */
  headSha?: string;
  deliveryId?: string;
}

/** Queues a run of pull request #7 as ingest would; returns its id. */
export async function queuePullRun(db: Db, request: RunRequest) {
  const { runId } = await queueRun(db, {
    orgId: request.orgId,
    projectId: request.projectId,
    pullRequest: PULL,
    trigger: request.trigger,
    command: request.command,
    headSha: request.trigger === "command" ? undefined : request.headSha,
    deliveryId: request.deliveryId ?? `d-${Math.random()}`,
  });
  return runId;
}

/** Works one attempt of a run, as the queue's worker would. */
export function workRun(db: Db, pipeline: ReviewPipeline, projectId: string, runId: string, attempt = 0) {
  return reviewWorker(db, pipeline, silent)({ runId, projectId, pullRequest: PULL }, attempt);
}

/** Queues a run and works it; returns its id. */
export async function queueAndWork(db: Db, pipeline: ReviewPipeline, request: RunRequest, attempt = 0) {
  const runId = await queuePullRun(db, request);
  await workRun(db, pipeline, request.projectId, runId, attempt);
  return runId;
}

/**
 * Starts an opened run whose first worker "dies" once the host took the review (it never records
 * it), then works the run's second attempt to the end. Returns the run's id.
 */
export async function rerunAfterCrashWhilePosting(
  db: Db,
  pipeline: () => ReviewPipeline,
  host: MemoryReviewHost,
  request: Omit<RunRequest, "trigger" | "deliveryId">,
) {
  host.afterPost = () => new Promise<void>(() => {});
  const runId = await queuePullRun(db, { ...request, trigger: "opened", deliveryId: "d-crash" });
  void workRun(db, pipeline(), request.projectId, runId, 0);
  await expect.poll(() => host.reviews.length).toBe(1);
  host.afterPost = undefined;
  await workRun(db, pipeline(), request.projectId, runId, 1);
  return runId;
}

export const runRow = (db: Db, runId: string) =>
  db.selectFrom("review_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();

/** The run's decisions in order, as `step: outcome`. */
export async function decisionSteps(db: Db, runId: string) {
  const rows = await db
    .selectFrom("review_decisions")
    .select(["step", "outcome"])
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();
  return rows.map((row) => `${row.step}: ${row.outcome}`);
}

export const findingRows = (db: Db, runId: string) =>
  db
    .selectFrom("review_findings")
    .select(["delivery", "not_posted_reason", "finding"])
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();
