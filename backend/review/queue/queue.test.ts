import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../shared/node/logging.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import {
  FAST_QUEUE,
  gatedPipeline,
  type OpenQueue,
  openQueue,
  push,
  seedProject,
} from "../../../tests/support/review-queue.ts";
import type { Db } from "../../db/database.ts";
import type { QueueOptions } from "./queue.ts";
import type { PullRequestEvent } from "./runs.ts";
import { reviewWorker } from "./worker.ts";

const silent = createLogger({ name: "test", level: "silent" });

let opened: OpenQueue[] = [];
let fresh: FreshDatabase | undefined;
afterEach(async () => {
  for (const { db, queue } of opened.reverse()) {
    await queue.stop();
    await db.destroy();
  }
  opened = [];
  await fresh?.drop();
  fresh = undefined;
});

async function open(database: FreshDatabase, options?: QueueOptions): Promise<OpenQueue> {
  const handle = await openQueue(database.target, options);
  opened.push(handle);
  return handle;
}

/** How long a queue may take to pick a job up (pg-boss polls), and how often to look. */
const WAIT = { timeout: 30_000, interval: 100 };

const runs = (db: Db, pullRequest?: number) =>
  db
    .selectFrom("review_runs")
    .select(["id", "status", "head_sha", "trigger", "reason", "findings_total", "findings_posted"])
    .$if(pullRequest !== undefined, (query) => query.where("pull_request", "=", pullRequest ?? 0))
    .orderBy("queued_at")
    .execute();

/** Ingest's events for opening pull requests `numbers` of the project, one delivery each. */
async function openPulls(
  db: Db,
  queue: OpenQueue["queue"],
  project: { orgId: string; projectId: string },
  numbers: number[],
) {
  for (const pullRequest of numbers) {
    await push(db, queue, { ...project, pullRequest, trigger: "opened", deliveryId: `d${pullRequest}` });
  }
}

const allSucceeded = async (db: Db) =>
  expect((await runs(db)).filter((run) => run.status !== "succeeded")).toEqual([]);

const decisions = (db: Db, runId: string) =>
  db
    .selectFrom("review_decisions")
    .select(["step", "outcome", "detail"])
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();

const jobStates = async (db: Db, pullRequest?: number) =>
  (
    await sql<{
      state: string;
    }>`select state from pgboss.job where name = 'review'
        and (${pullRequest ?? null}::int is null or (data->>'pullRequest')::int = ${pullRequest ?? null}::int)
        order by created_on`.execute(db)
  ).rows.map((row) => row.state);

describe.each(TEST_DATABASE_KINDS)("review queue on %s", (kind) => {
  it("keeps one queued and one running run per pull request; the queued one reviews the latest head", async () => {
    fresh = await freshDatabase(kind);
    const { db, queue } = await open(fresh);
    const { orgId, projectId } = await seedProject(db);
    const gated = gatedPipeline();
    await queue.start(reviewWorker(db, gated.pipeline, silent), { workers: 4 });
    const event = (n: number): PullRequestEvent => ({
      orgId,
      projectId,
      pullRequest: 7,
      trigger: n === 0 ? "opened" : "synchronize",
      headSha: `head-${n}`,
      baseSha: "base",
      deliveryId: `delivery-${n}`,
    });

    const first = await push(db, queue, event(0));
    await vi.waitFor(() => expect(gated.seen).toHaveLength(1), WAIT);
    const results: Array<{ runId: string; created: boolean }> = [];
    for (let n = 1; n <= 10; n++) results.push(await push(db, queue, event(n)));
    // Idle workers (on Postgres) must not take the queued run while the running one holds the pull
    // request: one of them takes a later pull request's job, so it has passed the queued run over.
    // Embedded PGlite runs one worker, busy with the running run.
    const later: PullRequestEvent = { ...event(0), pullRequest: 8, headSha: "head-8", deliveryId: "later" };
    if (kind === "postgres") {
      await push(db, queue, later);
      await vi.waitFor(() => expect(gated.seen.map((job) => job.pullRequest)).toEqual([7, 8]), WAIT);
    }

    expect(first.created).toBe(true);
    expect(results.filter((run) => run.created)).toHaveLength(1);
    expect(new Set(results.map((run) => run.runId)).size).toBe(1);
    expect(gated.seen.filter((job) => job.pullRequest === 7)).toHaveLength(1);
    expect((await runs(db, 7)).map((run) => [run.status, run.head_sha])).toEqual([
      ["running", "head-0"],
      ["queued", "head-10"],
    ]);
    expect(await jobStates(db, 7)).toEqual(["active", "created"]);

    gated.releaseNext();
    await vi.waitFor(() => expect(gated.seen.filter((job) => job.pullRequest === 7)).toHaveLength(2), WAIT);
    expect(gated.seen.filter((job) => job.pullRequest === 7)[1]).toMatchObject({
      runId: results[0]?.runId,
      headSha: "head-10",
      trigger: "synchronize",
    });
    gated.releaseAll();
    await vi.waitFor(() => allSucceeded(db), WAIT);
    expect((await runs(db, 7)).map((run) => [run.findings_total, run.findings_posted])).toEqual([
      [2, 1],
      [2, 1],
    ]);
    const log = await decisions(db, results[0]?.runId ?? "");
    expect(log.map((entry) => `${entry.step}:${entry.outcome}`)).toEqual([
      "event:queued",
      ...Array(9).fill("event:coalesced"),
      "run:started",
      "pipeline:test stage",
      "run:succeeded",
    ]);
    expect(log[10]?.detail).toMatchObject({ attempt: 0, head_sha: "head-10" });
  }, 60_000);

  it.runIf(kind === "postgres")(
    "runs reviews of different pull requests at once with several workers",
    async () => {
      fresh = await freshDatabase(kind);
      const { db, queue } = await open(fresh);
      const { orgId, projectId } = await seedProject(db);
      const gated = gatedPipeline();
      await queue.start(reviewWorker(db, gated.pipeline, silent), { workers: 3 });
      await openPulls(db, queue, { orgId, projectId }, [1, 2, 3]);
      await vi.waitFor(() => expect(gated.seen).toHaveLength(3), WAIT);
      expect(gated.seen.map((job) => job.pullRequest).sort()).toEqual([1, 2, 3]);
      for (let n = 0; n < 3; n++) gated.releaseNext();
      await vi.waitFor(() => allSucceeded(db), WAIT);
    },
    60_000,
  );

  it("works through a backlog without waiting its polling interval between jobs", async () => {
    fresh = await freshDatabase(kind);
    // An interval no test waits out: only a worker that looks again at once can finish in time.
    const { db, queue } = await open(fresh, { ...FAST_QUEUE, pollingIntervalSeconds: 60 });
    const { orgId, projectId } = await seedProject(db);
    await openPulls(db, queue, { orgId, projectId }, [1, 2, 3, 4]);
    const reviewed: number[] = [];
    await queue.start(
      reviewWorker(
        db,
        async (job) => {
          reviewed.push(job.pullRequest);
          return { status: "succeeded", findingsTotal: 0, findingsPosted: 0 };
        },
        silent,
      ),
      { workers: 1 },
    );
    await vi.waitFor(() => expect(reviewed).toHaveLength(4), { ...WAIT, timeout: 20_000 });
    await vi.waitFor(() => allSucceeded(db), WAIT);
    expect(reviewed.toSorted()).toEqual([1, 2, 3, 4]);
  }, 60_000);

  it("ends a run whose pipeline throws as failed with the reason, and does not run it again", async () => {
    fresh = await freshDatabase(kind);
    const { db, queue } = await open(fresh);
    const { orgId, projectId } = await seedProject(db);
    const calls: number[] = [];
    await queue.start(
      reviewWorker(
        db,
        async (job) => {
          calls.push(job.pullRequest);
          throw new Error("The model answered 500");
        },
        silent,
      ),
      { workers: 1 },
    );
    const { runId } = await push(db, queue, {
      orgId,
      projectId,
      pullRequest: 1,
      trigger: "command",
      command: "full review",
      deliveryId: "d1",
    });
    await vi.waitFor(async () => expect(await jobStates(db)).toEqual(["completed"]), WAIT);
    // A later job, taken and ended after it, shows the worker moved on without taking the failed one again.
    await push(db, queue, { orgId, projectId, pullRequest: 2, trigger: "opened", deliveryId: "d2" });
    await vi.waitFor(async () => expect(await jobStates(db, 2)).toEqual(["completed"]), WAIT);

    expect(calls).toEqual([1, 2]);
    expect(await runs(db, 1)).toEqual([
      expect.objectContaining({
        id: runId,
        status: "failed",
        reason: "The model answered 500",
        trigger: "command",
      }),
    ]);
    expect((await decisions(db, runId)).map((entry) => `${entry.step}:${entry.outcome}`)).toEqual([
      "event:queued",
      "run:started",
      "run:failed",
    ]);
  }, 60_000);

  it("runs a job again after its backend stopped mid-run, on the same data, without a second run", async () => {
    fresh = await freshDatabase(kind, { survivesRestart: true });
    const before = await open(fresh);
    const { orgId, projectId } = await seedProject(before.db);
    const stuck = gatedPipeline();
    await before.queue.start(reviewWorker(before.db, stuck.pipeline, silent), { workers: 1 });
    const { runId } = await push(before.db, before.queue, {
      orgId,
      projectId,
      pullRequest: 3,
      trigger: "opened",
      headSha: "abc",
      deliveryId: "d1",
    });
    await vi.waitFor(() => expect(stuck.seen).toHaveLength(1), WAIT);
    // The run never finishes here: the backend stops (its stop timeout passes) and its database closes.
    opened = [];
    await before.queue.stop();
    await before.db.destroy();

    const after = await open(fresh);
    const resumed = gatedPipeline();
    await after.queue.start(reviewWorker(after.db, resumed.pipeline, silent), { workers: 1 });
    await vi.waitFor(() => expect(resumed.seen).toHaveLength(1), { ...WAIT, timeout: 60_000 });
    resumed.releaseNext();
    await vi.waitFor(async () => expect((await runs(after.db))[0]?.status).toBe("succeeded"), WAIT);

    expect(resumed.seen[0]).toMatchObject({ runId, headSha: "abc" });
    expect(await runs(after.db)).toHaveLength(1);
    const log = await decisions(after.db, runId);
    expect(log.map((entry) => `${entry.step}:${entry.outcome}`)).toEqual([
      "event:queued",
      "run:started",
      "run:started",
      "pipeline:test stage",
      "run:succeeded",
    ]);
    expect(log[2]?.detail).toMatchObject({ attempt: 1 });
  }, 90_000);
});
