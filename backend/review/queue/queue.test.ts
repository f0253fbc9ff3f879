import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../shared/logging.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import {
  gatedPipeline,
  type OpenQueue,
  openQueue,
  push,
  seedProject,
} from "../../../tests/support/review-queue.ts";
import type { Db } from "../../db/database.ts";
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

async function open(database: FreshDatabase): Promise<OpenQueue> {
  const handle = await openQueue(database.target);
  opened.push(handle);
  return handle;
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const runs = (db: Db) =>
  db
    .selectFrom("review_runs")
    .select(["id", "status", "head_sha", "trigger", "reason", "findings_total", "findings_posted"])
    .orderBy("queued_at")
    .execute();

const decisions = (db: Db, runId: string) =>
  db
    .selectFrom("review_decisions")
    .select(["step", "outcome", "detail"])
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();

const jobStates = async (db: Db) =>
  (
    await sql<{
      state: string;
    }>`select state from pgboss.job where name = 'review' order by created_on`.execute(db)
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
    await until(() => gated.seen.length === 1);
    const results: Array<{ runId: string; created: boolean }> = [];
    for (let n = 1; n <= 10; n++) results.push(await push(db, queue, event(n)));
    // Idle workers (on Postgres) must not take the queued run while the running one holds the pull request.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(first.created).toBe(true);
    expect(results.filter((run) => run.created)).toHaveLength(1);
    expect(new Set(results.map((run) => run.runId)).size).toBe(1);
    expect(gated.seen).toHaveLength(1);
    expect((await runs(db)).map((run) => [run.status, run.head_sha])).toEqual([
      ["running", "head-0"],
      ["queued", "head-10"],
    ]);
    expect(await jobStates(db)).toEqual(["active", "created"]);

    gated.releaseNext();
    await until(() => gated.seen.length === 2);
    expect(gated.seen[1]).toMatchObject({
      runId: results[0]?.runId,
      headSha: "head-10",
      trigger: "synchronize",
    });
    gated.releaseNext();
    await until(async () => (await runs(db)).every((run) => run.status === "succeeded"));
    expect((await runs(db)).map((run) => [run.findings_total, run.findings_posted])).toEqual([
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
      for (const pullRequest of [1, 2, 3]) {
        await push(db, queue, {
          orgId,
          projectId,
          pullRequest,
          trigger: "opened",
          deliveryId: `d${pullRequest}`,
        });
      }
      await until(() => gated.seen.length === 3);
      expect(gated.seen.map((job) => job.pullRequest).sort()).toEqual([1, 2, 3]);
      for (let n = 0; n < 3; n++) gated.releaseNext();
      await until(async () => (await runs(db)).every((run) => run.status === "succeeded"));
    },
    60_000,
  );

  it("ends a run whose pipeline throws as failed with the reason, and does not run it again", async () => {
    fresh = await freshDatabase(kind);
    const { db, queue } = await open(fresh);
    const { orgId, projectId } = await seedProject(db);
    let calls = 0;
    await queue.start(
      reviewWorker(
        db,
        async () => {
          calls++;
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
    await until(async () => (await jobStates(db)).includes("completed"));
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(calls).toBe(1);
    expect(await runs(db)).toEqual([
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
    await until(() => stuck.seen.length === 1);
    // The run never finishes here: the backend stops (its stop timeout passes) and its database closes.
    opened = [];
    await before.queue.stop();
    await before.db.destroy();

    const after = await open(fresh);
    const resumed = gatedPipeline();
    await after.queue.start(reviewWorker(after.db, resumed.pipeline, silent), { workers: 1 });
    await until(() => resumed.seen.length === 1, 60_000);
    resumed.releaseNext();
    await until(async () => (await runs(after.db))[0]?.status === "succeeded");

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
