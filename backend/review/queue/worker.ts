/**
 * What the queue's workers do with a job: start its run, hand it to the review pipeline, and end
 * the run with the pipeline's outcome. A pipeline that throws ends the run failed with the error's
 * message; the job itself then completes, so a failed review is not re-run (it may have posted
 * part of its comments). Only a worker that dies mid-run has its job retried, and the retry takes
 * the same run again (startRun): retries never make a second run.
 */
import type { Logger } from "../../../shared/node/logging.ts";
import type { Db } from "../../db/database.ts";
import type { ReviewRunOutcome } from "../model.ts";
import type { QueuedReview } from "./queue.ts";
import { finishRun, type ReviewJob, recordDecision, startRun } from "./runs.ts";

/** Appends a step to the run's decision log. */
export type DecisionLog = (step: string, outcome: string, detail?: Record<string, unknown>) => Promise<void>;

/** The review itself (triage, diff, reviewers, posting): how a started run ends. */
export type ReviewPipeline = (job: ReviewJob, log: DecisionLog) => Promise<ReviewRunOutcome>;

const decisionLog =
  (db: Db, runId: string): DecisionLog =>
  (step, outcome, detail) =>
    recordDecision(db, runId, step, outcome, detail);

export function reviewWorker(
  db: Db,
  pipeline: ReviewPipeline,
  logger: Logger,
): (job: QueuedReview, attempt: number) => Promise<void> {
  return async (queued, attempt) => {
    const job = await startRun(db, queued.runId, attempt);
    if (!job) return;
    let outcome: ReviewRunOutcome;
    try {
      outcome = await pipeline(job, decisionLog(db, job.runId));
    } catch (error) {
      logger.warn({ err: error, runId: job.runId }, "review run failed");
      outcome = { status: "failed", reason: error instanceof Error ? error.message : String(error) };
    }
    await finishRun(db, job.runId, outcome);
  };
}
