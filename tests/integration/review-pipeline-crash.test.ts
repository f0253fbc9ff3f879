/**
 * A backend killed while posting a review (SIGKILL, after GitHub took the review but before the
 * backend recorded it) loses no job and posts nothing twice: the next backend takes the run again,
 * finds its review on the pull request by the findings' markers, and posts nothing more.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reviewWorker } from "../../backend/review/queue/worker.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../support/databases.ts";
import { type FakeGitHub, fakeRepository, startFakeGitHub } from "../support/fake-github.ts";
import { githubPipeline } from "../support/review-pipeline-crash.ts";
import { type OpenQueue, openQueue } from "../support/review-queue.ts";

const BASE = "ba5e".padEnd(40, "0");
const HEAD = "c0ffee".padEnd(40, "0");

let child: ChildProcess | undefined;
let reopened: OpenQueue | undefined;
let fresh: FreshDatabase | undefined;
let github: FakeGitHub | undefined;
afterEach(async () => {
  child?.kill("SIGKILL");
  await reopened?.queue.stop();
  await reopened?.db.destroy();
  await fresh?.drop();
  await github?.close();
  child = undefined;
  reopened = undefined;
  fresh = undefined;
  github = undefined;
});

describe.each(TEST_DATABASE_KINDS)("the review pipeline on %s", (kind) => {
  it("posts nothing twice when its backend is killed mid-post and the run is taken again", async () => {
    const fake = await startFakeGitHub();
    github = fake;
    fake.addInstallation({ id: 1, account: "acme", repositories: [fakeRepository("acme", "web", 100)] });
    fake.pulls.addPullRequest("acme/web", {
      number: 9,
      title: "Debugging",
      author: { login: "octocat", type: "User" },
      head: { ref: "debug", sha: HEAD },
      base: { ref: "main", sha: BASE },
    });
    fake.pulls.setDiff("acme/web", BASE, HEAD, [
      { filename: "src/a.ts", status: "added", patch: "@@ -0,0 +1,2 @@\n+export const a = 1;\n+debugger;" },
    ]);
    fake.pulls.holdReviews = true;
    const app = { url: fake.url, appId: fake.appId, privateKey: fake.appPrivateKey };

    fresh = await freshDatabase(kind, { survivesRestart: true });
    child = spawn(process.execPath, ["tests/support/review-pipeline-crash-child.ts"], {
      env: {
        ...process.env,
        REVIEW_CRASH_TARGET: JSON.stringify(fresh.target),
        FAKE_GITHUB: JSON.stringify(app),
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await vi.waitFor(() => expect(fake.pulls.reviews).toHaveLength(1), { timeout: 60_000, interval: 200 });
    const killed = child;
    killed.kill("SIGKILL");
    if (killed.exitCode === null && killed.signalCode === null) await once(killed, "exit");

    fake.pulls.holdReviews = false;
    reopened = await openQueue(fresh.target);
    const { db, queue } = reopened;
    await queue.start(
      reviewWorker(db, githubPipeline(db, app), createLogger({ name: "test", level: "silent" })),
      {
        workers: 1,
      },
    );
    await vi.waitFor(
      async () => {
        const run = await db.selectFrom("review_runs").select("status").executeTakeFirst();
        expect(run?.status).toBe("succeeded");
      },
      { timeout: 60_000, interval: 200 },
    );

    expect(fake.pulls.reviews).toHaveLength(1);
    const [run] = await db.selectFrom("review_runs").select("id").execute();
    const log = await db
      .selectFrom("review_decisions")
      .select(["step", "outcome", "detail"])
      .where("run_id", "=", run?.id ?? "")
      .orderBy("id")
      .execute();
    expect(
      log.filter((row) => row.outcome === "started" && row.step === "run").map((row) => row.detail.attempt),
    ).toEqual([0, 1]);
    expect(log.map((row) => `${row.step}: ${row.outcome}`)).toContain("post: nothing to post");
  }, 150_000);
});
