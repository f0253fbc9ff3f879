/**
 * A backend killed mid-review (SIGKILL: no stop, no goodbye) loses no job: the next backend on the
 * same data takes the run again once the dead worker's heartbeat lapses, and finishes it once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reviewWorker } from "../../backend/review/queue/worker.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../support/databases.ts";
import { gatedPipeline, type OpenQueue, openQueue } from "../support/review-queue.ts";

let child: ChildProcess | undefined;
let reopened: OpenQueue | undefined;
let fresh: FreshDatabase | undefined;
afterEach(async () => {
  child?.kill("SIGKILL");
  await reopened?.queue.stop();
  await reopened?.db.destroy();
  await fresh?.drop();
  child = undefined;
  reopened = undefined;
  fresh = undefined;
});

/** Starts the child and resolves with the run id it printed once its run started. */
async function startedRun(database: FreshDatabase): Promise<string> {
  child = spawn(process.execPath, ["tests/support/review-crash-child.ts"], {
    env: { ...process.env, REVIEW_CRASH_TARGET: JSON.stringify(database.target) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  for await (const chunk of child.stdout ?? []) {
    output += String(chunk);
    const runId = /started (\S+)\n/.exec(output)?.[1];
    if (runId) return runId;
  }
  throw new Error(`the child ended before its run started: ${output}`);
}

describe.each(TEST_DATABASE_KINDS)("review queue on %s", (kind) => {
  it("runs a killed backend's job again on the next start, once", async () => {
    fresh = await freshDatabase(kind, { survivesRestart: true });
    const runId = await startedRun(fresh);
    const killed = child;
    killed?.kill("SIGKILL");
    if (killed && killed.exitCode === null && killed.signalCode === null) await once(killed, "exit");

    reopened = await openQueue(fresh.target);
    const { db, queue } = reopened;
    const resumed = gatedPipeline();
    await queue.start(reviewWorker(db, resumed.pipeline, createLogger({ name: "test", level: "silent" })), {
      workers: 1,
    });
    await vi.waitFor(() => expect(resumed.seen).toHaveLength(1), { timeout: 60_000, interval: 200 });
    resumed.releaseNext();
    await vi.waitFor(
      async () => {
        const run = await db.selectFrom("review_runs").select("status").executeTakeFirst();
        expect(run?.status).toBe("succeeded");
      },
      { timeout: 30_000, interval: 200 },
    );

    expect(resumed.seen[0]).toMatchObject({ runId, headSha: "c0ffee", pullRequest: 9 });
    const runs = await db.selectFrom("review_runs").select("id").execute();
    expect(runs).toEqual([{ id: runId }]);
    const started = await db
      .selectFrom("review_decisions")
      .select("detail")
      .where("run_id", "=", runId)
      .where("outcome", "=", "started")
      .orderBy("id")
      .execute();
    expect(started.map((row) => row.detail.attempt)).toEqual([0, 1]);
  }, 120_000);
});
