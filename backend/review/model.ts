/**
 * The words of the review engine's records: what started a run, where it stands, and the command
 * it carries. Stored as text in review_runs (migration 0007_review_engine).
 */
import type * as v from "valibot";
import type {
  RunFinding,
  reviewRunStatusSchema,
  reviewTriggerSchema,
} from "../../shared/contract/reviews.ts";
import type { BotCommand } from "./ingest/commands.ts";

/**
 * What queued a run. Azure DevOps' "created" is `opened`, and its "updated" (source branch
 * updated) is `synchronize`; a bot command in a comment is `command`.
 */
export type ReviewTrigger = v.InferOutput<typeof reviewTriggerSchema>;

export type ReviewRunStatus = v.InferOutput<typeof reviewRunStatusSchema>;

/** How a run ended, as the pipeline reports it. */
export type ReviewRunOutcome =
  | { status: "succeeded"; findingsTotal: number; findingsPosted: number }
  | { status: "skipped"; reason: string }
  | { status: "failed"; reason: string };

/** What became of a finding: posted inline, in the summary, already posted before, not posted, or shadow. */
export type FindingDelivery = RunFinding["delivery"];

/** Why a finding was not posted (set with the delivery "not_posted" only). */
export type NotPostedReason = NonNullable<RunFinding["notPostedReason"]>;

/** Where a posted (or, in shadow mode, a would-be posted) finding goes. */
export type PostedDelivery = NonNullable<RunFinding["shadowDelivery"]>;

/** Whether a finding reached the pull request, inline or in the summary. */
export const isPosted = (delivery: FindingDelivery): delivery is PostedDelivery =>
  delivery === "inline" || delivery === "summary";

export type { BotCommand };
