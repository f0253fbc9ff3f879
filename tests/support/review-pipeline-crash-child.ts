/**
 * A backend killed while it posts a review (tests/integration/review-pipeline-crash.test.ts): it
 * opens the database named by REVIEW_CRASH_TARGET, seeds a GitHub project on the Pro trial, starts
 * a worker with the real pipeline against the fake GitHub named by FAKE_GITHUB (JSON), and queues
 * one review of pull request 9 at `c0ffee…`.
 */
import type { DatabaseTarget } from "../../backend/config.ts";
import { reviewWorker } from "../../backend/review/queue/worker.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { type FakeGitHubApp, githubPipeline } from "./review-pipeline-crash.ts";
import { openQueue, push, seedProject, startProTrial } from "./review-queue.ts";

const target = JSON.parse(process.env.REVIEW_CRASH_TARGET ?? "") as DatabaseTarget;
const github = JSON.parse(process.env.FAKE_GITHUB ?? "") as FakeGitHubApp;
const { db, queue } = await openQueue(target);
const { orgId, projectId } = await seedProject(db);
await startProTrial(db, orgId);
await queue.start(
  reviewWorker(db, githubPipeline(db, github), createLogger({ name: "child", level: "silent" })),
  {
    workers: 1,
  },
);
const { runId } = await push(db, queue, {
  orgId,
  projectId,
  pullRequest: 9,
  trigger: "opened",
  headSha: "c0ffee".padEnd(40, "0"),
  deliveryId: "d9",
});
process.stdout.write(`queued ${runId}\n`);
