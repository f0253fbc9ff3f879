/**
 * The review queue for tests: short timings, a database with one project, ingest's two steps in
 * one call, and a pipeline held until released. Used in process (backend/review/queue/queue.test.ts) and
 * by the process a crash test kills (review-crash-child.ts).
 */
import type { DatabaseTarget } from "../../backend/config.ts";
import { type Db, openDatabase } from "../../backend/db/database.ts";
import { migrateToLatest } from "../../backend/db/migrations.ts";
import type { ReviewRunOutcome } from "../../backend/review/model.ts";
import {
  DEFAULT_QUEUE_OPTIONS,
  openReviewQueue,
  type QueueOptions,
  type ReviewQueue,
} from "../../backend/review/queue/queue.ts";
import { type PullRequestEvent, queueRun, type ReviewJob } from "../../backend/review/queue/runs.ts";
import type { ReviewPipeline } from "../../backend/review/queue/worker.ts";
import { PLAN_VALUES } from "../../shared/constants.ts";
import { githubProjectRow } from "./project-rows.ts";

/** Short enough for a test to see a dead worker's job come back (pg-boss's heartbeat floor is 10 s). */
export const FAST_QUEUE: QueueOptions = {
  ...DEFAULT_QUEUE_OPTIONS,
  heartbeatSeconds: 10,
  pollingIntervalSeconds: 0.5,
  superviseIntervalSeconds: 1,
  stopTimeoutSeconds: 1,
};

export interface OpenQueue {
  db: Db;
  queue: ReviewQueue;
}

/** The database, migrated, with its review queue open (no workers yet). */
export async function openQueue(target: DatabaseTarget, options = FAST_QUEUE): Promise<OpenQueue> {
  const db = await openDatabase(target);
  await migrateToLatest(db);
  return { db, queue: await openReviewQueue(db, target, options) };
}

/** An organisation with one GitHub project (acme/web of installation 1). */
export async function seedProject(db: Db) {
  const org = await db
    .insertInto("organizations")
    .values({ name: "Acme" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto("projects")
    .values(
      githubProjectRow(org.id, "web", {
        external_id: "100",
        properties: JSON.stringify({ full_name: "acme/web" }),
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return { orgId: org.id, projectId: row.id };
}

const WEEK_MS = 7 * 86_400_000;

/** Puts the organisation on the Pro trial, a week from its end, so every review gate lets it in. */
export async function startProTrial(db: Db, orgId: string) {
  await db
    .insertInto("subscriptions")
    .values({
      org_id: orgId,
      plan_code: PLAN_VALUES.proTrial,
      status: "trialing",
      seats_total: 5,
      trial_ends_at: new Date(Date.now() + WEEK_MS),
    })
    .execute();
}

/** What ingest does for one event: queue or coalesce the run, and send its job when it is new. */
export async function push(db: Db, queue: ReviewQueue, event: PullRequestEvent) {
  return db.transaction().execute(async (trx) => {
    const run = await queueRun(trx, event);
    if (run.created) {
      await queue.enqueue(trx, {
        runId: run.runId,
        projectId: event.projectId,
        pullRequest: event.pullRequest,
      });
    }
    return run;
  });
}

/** A pipeline that holds each run until released, and remembers what it was given. */
export function gatedPipeline() {
  const seen: ReviewJob[] = [];
  const waiting: Array<() => void> = [];
  let release = false;
  const pipeline: ReviewPipeline = async (job, log) => {
    seen.push(job);
    if (!release) await new Promise<void>((resolve) => waiting.push(resolve));
    await log("pipeline", "test stage");
    return { status: "succeeded", findingsTotal: 2, findingsPosted: 1 } satisfies ReviewRunOutcome;
  };
  return {
    seen,
    pipeline,
    releaseNext: () => waiting.shift()?.(),
    /** Lets every waiting run through, and those that come later. */
    releaseAll: () => {
      release = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}
