/**
 * A backend's review side that gets killed mid-run (tests/integration/review-queue-crash.test.ts):
 * it opens the database named by REVIEW_CRASH_TARGET (JSON), queues one review, starts a worker
 * whose pipeline never finishes, and prints `started <runId>` once the run is under way.
 */
import type { DatabaseTarget } from "../../backend/config.ts";
import { reviewWorker } from "../../backend/review/queue/worker.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { gatedPipeline, openQueue, push, seedProject } from "./review-queue.ts";

const target = JSON.parse(process.env.REVIEW_CRASH_TARGET ?? "") as DatabaseTarget;
const { db, queue } = await openQueue(target);
const { orgId, projectId } = await seedProject(db);
const stuck = gatedPipeline();
await queue.start(reviewWorker(db, stuck.pipeline, createLogger({ name: "child", level: "silent" })), {
  workers: 1,
});
await push(db, queue, {
  orgId,
  projectId,
  pullRequest: 9,
  trigger: "opened",
  headSha: "c0ffee",
  deliveryId: "d9",
});
const poll = setInterval(() => {
  const job = stuck.seen[0];
  if (!job) return;
  clearInterval(poll);
  process.stdout.write(`started ${job.runId}\n`);
}, 50);
