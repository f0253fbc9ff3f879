/** The zod schemas of shared/contract/reviews.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { REVIEW_SORTS } from "./paging.ts";
import { pageInfoSchema, pageQuerySchema } from "./paging-schemas.ts";
import { FINDING_MESSAGE_MAX, FINDING_PATH_MAX, FINDING_QUOTE_MAX, FINDING_RULE_ID_MAX } from "./reviews.ts";

export const findingSeveritySchema = z.enum(["critical", "major", "minor", "info"]);

export type FindingSeverity = z.infer<typeof findingSeveritySchema>;

/** Most severe first: the order findings are listed and posted in. */
export const FINDING_SEVERITY_ORDER: readonly FindingSeverity[] = findingSeveritySchema.options;

/**
 * What kind of flaw a finding is: the benchmark scores a catch only in the defect's own category.
 * "hygiene" is for findings that are about the change rather than a defect (a focused test, an
 * oversized pull request).
 */
export const findingCategorySchema = z.enum([
  "security",
  "logic",
  "resource-leak",
  "race",
  "correctness",
  "hygiene",
]);

export type FindingCategory = z.infer<typeof findingCategorySchema>;

export const findingSourceSchema = z.enum(["builtin", "ai"]);

export type FindingSource = z.infer<typeof findingSourceSchema>;

export const findingSchema = z
  .object({
    /** Namespaced, e.g. `secrets/github`, `biome/suspicious/noDebugger`, `markers/debugger`. */
    ruleId: z
      .string()
      .min(1)
      .max(FINDING_RULE_ID_MAX)
      .regex(/^[A-Za-z0-9][A-Za-z0-9/._-]*$/),
    severity: findingSeveritySchema,
    path: z.string().min(1).max(FINDING_PATH_MAX).nullable(),
    line: z.number().int().positive().nullable(),
    /** The line as the diff shows it, except that a secret on it is masked. */
    quote: z.string().max(FINDING_QUOTE_MAX).nullable(),
    /** Why it matters, for a developer, in a sentence or two. */
    message: z.string().min(1).max(FINDING_MESSAGE_MAX),
    category: findingCategorySchema.optional(),
    /** The weakness's CWE id, e.g. `CWE-89`, where one exists. */
    cwe: z
      .string()
      .regex(/^CWE-\d{1,5}$/)
      .optional(),
    /** How to fix it, in a sentence. */
    fix: z.string().min(1).max(FINDING_MESSAGE_MAX).optional(),
    /**
     * sha256 (hex) of rule id, path and the whitespace-normalised line text, not the line number,
     * so the same finding keeps its fingerprint when unrelated pushes shift lines.
     */
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    source: findingSourceSchema,
  })
  .refine((f) => (f.line === null) === (f.quote === null), {
    message: "A finding has a line and a quote, or neither.",
  })
  .refine((f) => f.line === null || f.path !== null, { message: "A finding on a line names its file." });

export type Finding = z.infer<typeof findingSchema>;

export const reviewRunStatusSchema = z.enum(["queued", "running", "succeeded", "failed", "skipped"]);

export const reviewTriggerSchema = z.enum([
  "opened",
  "reopened",
  "ready_for_review",
  "synchronize",
  "command",
]);

/** A review run as the Reviews page lists it. Dates are ISO 8601. */
export const reviewRunSummarySchema = z.object({
  id: z.string(),
  projectId: z.string(),
  /** The repository's full name. */
  repository: z.string(),
  pullRequest: z.number().int(),
  /** Null until the run has read the pull request from the code host. */
  pullRequestTitle: z.string().nullable(),
  pullRequestUrl: z.string().nullable(),
  status: reviewRunStatusSchema,
  trigger: reviewTriggerSchema,
  command: z.string().nullable(),
  headSha: z.string().nullable(),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  findingsTotal: z.number().int().nullable(),
  findingsPosted: z.number().int().nullable(),
  /** Why a run was skipped or failed. */
  reason: z.string().nullable(),
  /** The run reviewed in shadow mode: it posted nothing to the code host. */
  shadow: z.boolean(),
});

export type ReviewRunSummary = z.infer<typeof reviewRunSummarySchema>;

/**
 * GET /api/reviews: one page of the organisation's runs (`page`, `pageSize`, `sort`:
 * shared/contract/common.ts), optionally of one repository (`projectId`) and one status (`status`).
 */
export const reviewRunsQuerySchema = pageQuerySchema(REVIEW_SORTS)
  .omit({ search: true })
  .extend({ projectId: z.uuid().optional(), status: reviewRunStatusSchema.optional() });

export type ReviewRunsQuery = z.infer<typeof reviewRunsQuerySchema>;

export const reviewRunsResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(reviewRunSummarySchema),
  page: pageInfoSchema,
});

/** One step of a run's decision log, in order. */
export const reviewDecisionSchema = z.object({
  step: z.string(),
  outcome: z.string(),
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
});

export type ReviewDecision = z.infer<typeof reviewDecisionSchema>;

/** Where a posted finding goes: on its line, or in the review's summary. */
export const postedDeliverySchema = z.enum(["inline", "summary"]);

/**
 * People's reactions to a posted finding, as last read from the code host (docs/review-engine.md,
 * "Feedback"): 👍 says it was useful, 👎 that it was noise.
 */
export const findingFeedbackSchema = z.object({
  thumbsUp: z.number().int().nonnegative(),
  thumbsDown: z.number().int().nonnegative(),
});

export type FindingFeedback = z.infer<typeof findingFeedbackSchema>;

/** A finding of a run and what became of it. */
export const runFindingSchema = z.object({
  finding: findingSchema,
  /**
   * posted inline; in the summary (no line, or outside the diff); already posted by an earlier run;
   * not posted (below the severity threshold or beyond the per-review limit); shadow: it would have
   * been posted, but the run was in shadow mode and posted nothing; suppressed (a 👎 in this
   * repository, decision 021).
   */
  delivery: z.enum([...postedDeliverySchema.options, "duplicate", "not_posted", "shadow", "suppressed"]),
  /** For a shadow finding, where it would have gone; null otherwise. */
  shadowDelivery: postedDeliverySchema.nullable(),
  /** The repository's counts for this finding's fingerprint, as the latest run read them. */
  feedback: findingFeedbackSchema,
});

export type RunFinding = z.infer<typeof runFindingSchema>;

/**
 * How a run's AI pass ended: reviewed (the model answered), failed (a model error: the built-in
 * findings were posted alone), over_budget (the organisation's monthly AI budget was spent),
 * over_call_limit (the organisation's AI reviews of the hour were used up).
 */
export const runAiOutcomeSchema = z.enum(["reviewed", "failed", "over_budget", "over_call_limit"]);

export type RunAiOutcome = z.infer<typeof runAiOutcomeSchema>;

/** A run's AI pass as the run page shows it; null on a run without one. */
export const runAiUsageSchema = z.object({
  outcome: runAiOutcomeSchema,
  model: z.string().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  /** Micro-dollars (millionths of a USD); null when no price is known for the model. */
  costMicros: z.number().int().nullable(),
  /** Why it failed or was skipped, or that its cost is unknown. */
  note: z.string().nullable(),
});

export type RunAiUsage = z.infer<typeof runAiUsageSchema>;

/** GET /api/reviews/{runId} */
export const reviewRunResponseSchema = z.object({
  success: z.boolean(),
  data: reviewRunSummarySchema.extend({
    decisions: z.array(reviewDecisionSchema),
    findings: z.array(runFindingSchema),
    ai: runAiUsageSchema.nullable(),
  }),
});

export type ReviewRunDetail = z.infer<typeof reviewRunResponseSchema>["data"];

/** POST /api/reviews/{runId}/retry: the new run. */
export const reviewRetryResponseSchema = z.object({ success: z.boolean(), data: reviewRunSummarySchema });
