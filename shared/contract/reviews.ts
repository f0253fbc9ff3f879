/**
 * Review runs (docs/product.md#reviews, docs/review-engine.md): findings, runs, their decision log,
 * feedback and AI usage; the bot's commands; CWE links. One module for the area: its bounds, paths
 * and messages first, then its valibot schemas, which a page that does not use them tree-shakes away.
 */
import * as v from "valibot";
import { pageInfoSchema, pageQuerySchema, REVIEW_SORTS } from "./paging.ts";
import { integerSchema, schema, uuidSchema } from "./schema.ts";

/**
 * A review finding, as the built-in reviewer and the AI reviewer produce it, the posting stage
 * posts it and the run pages show it (docs/review-engine.md). One schema for every producer.
 *
 * Where a finding points:
 * - a line: `path`, `line` (right-side, 1-based, inside the diff) and `quote` (that line's text);
 * - a whole file (for example a committed `.env`): `path` only, `line` and `quote` null;
 * - the whole pull request (for example its size): `path`, `line` and `quote` all null.
 */

export const FINDING_RULE_ID_MAX = 100;

export const FINDING_PATH_MAX = 1024;

/** Longer lines (minified code) are cut at this length, with an ellipsis, in `quote`. */
export const FINDING_QUOTE_MAX = 400;

export const FINDING_MESSAGE_MAX = 1000;

/** GET, text/event-stream: a `run` event with the run's summary whenever one of the organisation's runs changes. */
export const REVIEW_EVENTS_PATH = "/api/reviews/events";

/**
 * The bot's commands and handle, shared by the engine that answers them (backend/review/commands.ts)
 * and the pages that name them (/home, the sandbox's pull requests). The handle follows the product
 * name (PRODUCT_NAME "Argus" → `@argus`).
 */

export const BOT_COMMANDS = ["review", "full review", "pause", "resume", "help"] as const;

export type BotCommand = (typeof BOT_COMMANDS)[number];

/** The product name as a code-host handle: lower case, anything but letters and digits a hyphen. */
export function botHandle(productName: string): string {
  return productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A command as a person comments it: `@argus review`. */
export const botCommandText = (productName: string, command: BotCommand = "review") =>
  `@${botHandle(productName)} ${command}`;

/**
 * Where a weakness is described: a finding's CWE id (shared/contract/reviews.ts) links there, on the
 * run page and in posted comments. A module of its own so that pages without findings never load it.
 */

/** MITRE's page of a weakness: `CWE-89` → https://cwe.mitre.org/data/definitions/89.html. */
export function cweUrl(cwe: string): string {
  return `https://cwe.mitre.org/data/definitions/${cwe.replace(/^CWE-/, "")}.html`;
}

/** Most severe first: the order findings are listed and posted in. */
export const FINDING_SEVERITY_ORDER = ["critical", "major", "minor", "info"] as const;

export const findingSeveritySchema = schema(() => v.picklist(FINDING_SEVERITY_ORDER));

export type FindingSeverity = v.InferOutput<typeof findingSeveritySchema>;

/**
 * What kind of flaw a finding is: the benchmark scores a catch only in the defect's own category.
 * "hygiene" is for findings that are about the change rather than a defect (a focused test, an
 * oversized pull request).
 */
export const FINDING_CATEGORIES = [
  "security",
  "logic",
  "resource-leak",
  "race",
  "correctness",
  "hygiene",
] as const;

export const findingCategorySchema = schema(() => v.picklist(FINDING_CATEGORIES));

export type FindingCategory = v.InferOutput<typeof findingCategorySchema>;

export const findingSourceSchema = schema(() => v.picklist(["builtin", "ai"]));

export type FindingSource = v.InferOutput<typeof findingSourceSchema>;

export const findingSchema = schema(() =>
  v.pipe(
    v.object({
      /** Namespaced, e.g. `secrets/github`, `biome/suspicious/noDebugger`, `markers/debugger`. */
      ruleId: v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(FINDING_RULE_ID_MAX),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9/._-]*$/),
      ),
      severity: findingSeveritySchema,
      path: v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(FINDING_PATH_MAX))),
      line: v.nullable(v.pipe(v.number(), v.integer(), v.gtValue(0))),
      /** The line as the diff shows it, except that a secret on it is masked. */
      quote: v.nullable(v.pipe(v.string(), v.maxLength(FINDING_QUOTE_MAX))),
      /** Why it matters, for a developer, in a sentence or two. */
      message: v.pipe(v.string(), v.minLength(1), v.maxLength(FINDING_MESSAGE_MAX)),
      category: v.optional(findingCategorySchema),
      /** The weakness's CWE id, e.g. `CWE-89`, where one exists. */
      cwe: v.optional(v.pipe(v.string(), v.regex(/^CWE-\d{1,5}$/))),
      /** How to fix it, in a sentence. */
      fix: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(FINDING_MESSAGE_MAX))),
      /**
       * sha256 (hex) of rule id, path and the whitespace-normalised line text, not the line number,
       * so the same finding keeps its fingerprint when unrelated pushes shift lines.
       */
      fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
      source: findingSourceSchema,
    }),
    v.check((f) => (f.line === null) === (f.quote === null), "A finding has a line and a quote, or neither."),
    v.check((f) => f.line === null || f.path !== null, "A finding on a line names its file."),
  ),
);

export type Finding = v.InferOutput<typeof findingSchema>;

export const reviewRunStatusSchema = schema(() =>
  v.picklist(["queued", "running", "succeeded", "failed", "skipped"]),
);

export const reviewTriggerSchema = schema(() =>
  v.picklist(["opened", "reopened", "ready_for_review", "synchronize", "command"]),
);

/** A review run as the Reviews page lists it. Dates are ISO 8601. */
export const reviewRunSummarySchema = schema(() =>
  v.object({
    id: v.string(),
    projectId: v.string(),
    /** The repository's full name. */
    repository: v.string(),
    pullRequest: integerSchema,
    /** Null until the event or the run's read of the pull request gave them. */
    pullRequestTitle: v.nullable(v.string()),
    pullRequestUrl: v.nullable(v.string()),
    status: reviewRunStatusSchema,
    trigger: reviewTriggerSchema,
    command: v.nullable(v.string()),
    headSha: v.nullable(v.string()),
    queuedAt: v.string(),
    startedAt: v.nullable(v.string()),
    finishedAt: v.nullable(v.string()),
    durationMs: v.nullable(integerSchema),
    findingsTotal: v.nullable(integerSchema),
    findingsPosted: v.nullable(integerSchema),
    /** Why a run was skipped or failed. */
    reason: v.nullable(v.string()),
    /** The run reviewed in shadow mode: it posted nothing to the code host. */
    shadow: v.boolean(),
  }),
);

export type ReviewRunSummary = v.InferOutput<typeof reviewRunSummarySchema>;

/**
 * GET /api/reviews: one page of the organisation's runs (`page`, `pageSize`, `sort`:
 * shared/contract/common.ts), optionally of one repository (`projectId`), one status (`status`) and
 * the pull requests `search` names (runMatchesSearch, review-search.ts).
 */
export const reviewRunsQuerySchema = schema(() =>
  v.object({
    ...pageQuerySchema(REVIEW_SORTS).entries,
    projectId: v.optional(uuidSchema),
    status: v.optional(reviewRunStatusSchema),
  }),
);

export type ReviewRunsQuery = v.InferOutput<typeof reviewRunsQuerySchema>;

export const reviewRunsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.array(reviewRunSummarySchema),
    page: pageInfoSchema,
  }),
);

/** One step of a run's decision log, in order. */
export const reviewDecisionSchema = schema(() =>
  v.object({
    step: v.string(),
    outcome: v.string(),
    detail: v.record(v.string(), v.unknown()),
    at: v.string(),
  }),
);

export type ReviewDecision = v.InferOutput<typeof reviewDecisionSchema>;

/** Where a posted finding goes: on its line, or in the review's summary. */
export const postedDeliverySchema = schema(() => v.picklist(["inline", "summary"]));

/**
 * People's reactions to a posted finding, as last read from the code host (docs/review-engine.md,
 * "Feedback"): 👍 says it was useful, 👎 that it was noise.
 */
export const findingFeedbackSchema = schema(() =>
  v.object({
    thumbsUp: v.pipe(v.number(), v.integer(), v.minValue(0)),
    thumbsDown: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
);

export type FindingFeedback = v.InferOutput<typeof findingFeedbackSchema>;

/**
 * Why a finding was not posted: below the lowest severity reported (`severity_threshold`), over the
 * per-review limit (`max_findings`), or one more of a rule that already has its comments in the
 * file (decision 059).
 */
export const notPostedReasonSchema = schema(() => v.picklist(["below_threshold", "over_limit", "repeat"]));

/** A finding of a run and what became of it. */
export const runFindingSchema = schema(() =>
  v.object({
    finding: findingSchema,
    /**
     * posted inline; in the summary (no line, or outside the diff); already posted by an earlier run;
     * not posted (`notPostedReason` says why); shadow: it would have
     * been posted, but the run was in shadow mode and posted nothing; suppressed (a 👎 in this
     * repository, decision 021).
     */
    delivery: v.union([
      postedDeliverySchema,
      v.picklist(["duplicate", "not_posted", "shadow", "suppressed"]),
    ]),
    /** For a shadow finding, where it would have gone; null otherwise. */
    shadowDelivery: v.nullable(postedDeliverySchema),
    /** For a finding not posted, why; null otherwise, and for runs recorded before migration 0023. */
    notPostedReason: v.nullable(notPostedReasonSchema),
    /** The repository's counts for this finding's fingerprint, as the latest run read them. */
    feedback: findingFeedbackSchema,
  }),
);

export type RunFinding = v.InferOutput<typeof runFindingSchema>;

const suppressedIn = (projectId: string) => `/api/projects/${projectId}/suppressed-findings`;

/** The calls of a repository's suppressed findings. */
export const SUPPRESSED_FINDINGS_PATHS = {
  /** GET: the findings a 👎 suppressed in the repository, most recently suppressed first. */
  list: (projectId: string) => suppressedIn(encodeURIComponent(projectId)),
  /** DELETE: post one again (by its fingerprint), answered `{success: true}`; a 👎 more than it has now suppresses it again. */
  one: (projectId: string, fingerprint: string) =>
    `${suppressedIn(encodeURIComponent(projectId))}/${encodeURIComponent(fingerprint)}`,
} as const;

/** The same paths as the backend's routes declare them. */
export const SUPPRESSED_FINDINGS_ROUTES = {
  list: suppressedIn(":projectId"),
  one: `${suppressedIn(":projectId")}/:fingerprint`,
} as const;

/** Suppressed findings listed per repository, at most (the most recently suppressed). */
export const SUPPRESSED_FINDINGS_LISTED_MAX = 200;

/**
 * A finding a 👎 suppressed in a repository (decision 021): what the latest run that kept it
 * recorded (null when no run kept it), its repository's 👍 and 👎, and since when.
 */
export const suppressedFindingSchema = schema(() =>
  v.object({
    fingerprint: v.string(),
    finding: v.nullable(findingSchema),
    feedback: findingFeedbackSchema,
    suppressedAt: v.string(),
  }),
);

export type SuppressedFinding = v.InferOutput<typeof suppressedFindingSchema>;

/** GET SUPPRESSED_FINDINGS_PATHS.list */
export const suppressedFindingsResponseSchema = schema(() =>
  v.object({
    success: v.literal(true),
    data: v.object({ findings: v.array(suppressedFindingSchema) }),
  }),
);

/**
 * GET: people's 👍 and 👎 on the organisation's posted findings (`?projectId` narrows to one
 * repository). Here rather than in API_PATHS, which every page loads; only /reviews calls it.
 */
export const REVIEW_FEEDBACK_PATH = "/api/reviews/feedback";

/** The rules listed with their reactions, at most: those with the most 👎 first. */
export const FEEDBACK_RULES_LISTED_MAX = 5;

export const reviewFeedbackQuerySchema = schema(() => v.object({ projectId: v.optional(uuidSchema) }));

// A function, not a schema made at load: this module's schemas are built only where they are used.
const countSchema = () => v.pipe(v.number(), v.integer(), v.minValue(0));

/** The reactions on one rule's findings. */
export const ruleFeedbackSchema = schema(() =>
  v.object({
    ruleId: v.string(),
    source: findingSourceSchema,
    /** Its findings that people reacted to or that a 👎 suppressed. */
    findings: countSchema(),
    thumbsUp: countSchema(),
    thumbsDown: countSchema(),
  }),
);

export type RuleFeedback = v.InferOutput<typeof ruleFeedbackSchema>;

/**
 * The reactions on the findings of every repository, or of one: how many findings people reacted
 * to, the 👍 and 👎 on them, how many a 👎 keeps from being posted again, and the rules with the
 * most 👎 (those a team may want to turn off).
 */
export const reviewFeedbackSchema = schema(() =>
  v.object({
    findings: countSchema(),
    thumbsUp: countSchema(),
    thumbsDown: countSchema(),
    suppressed: countSchema(),
    rules: v.array(ruleFeedbackSchema),
  }),
);

export type ReviewFeedback = v.InferOutput<typeof reviewFeedbackSchema>;

export const reviewFeedbackResponseSchema = schema(() =>
  v.object({ success: v.literal(true), data: reviewFeedbackSchema }),
);

/**
 * How a run's AI pass ended: reviewed (the model answered), failed (a model error: the built-in
 * findings were posted alone), over_budget (the organisation's monthly AI budget was spent),
 * over_call_limit (the organisation's AI reviews of the hour were used up).
 */
export const runAiOutcomeSchema = schema(() =>
  v.picklist(["reviewed", "failed", "over_budget", "over_call_limit"]),
);

export type RunAiOutcome = v.InferOutput<typeof runAiOutcomeSchema>;

/** A run's AI pass as the run page shows it; null on a run without one. */
export const runAiUsageSchema = schema(() =>
  v.object({
    outcome: runAiOutcomeSchema,
    model: v.nullable(v.string()),
    inputTokens: v.nullable(integerSchema),
    outputTokens: v.nullable(integerSchema),
    /** Micro-dollars (millionths of a USD); null when no price is known for the model. */
    costMicros: v.nullable(integerSchema),
    /** Why it failed or was skipped, or that its cost is unknown. */
    note: v.nullable(v.string()),
  }),
);

export type RunAiUsage = v.InferOutput<typeof runAiUsageSchema>;

/** GET /api/reviews/{runId} */
export const reviewRunResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({
      ...reviewRunSummarySchema.entries,
      /** The code host's page of the head commit; null without one (the sandbox, no head yet). */
      headCommitUrl: v.nullable(v.string()),
      decisions: v.array(reviewDecisionSchema),
      findings: v.array(runFindingSchema),
      ai: v.nullable(runAiUsageSchema),
    }),
  }),
);

export type ReviewRunDetail = v.InferOutput<typeof reviewRunResponseSchema>["data"];

/** POST /api/reviews/{runId}/retry: the new run. */
export const reviewRetryResponseSchema = schema(() =>
  v.object({ success: v.boolean(), data: reviewRunSummarySchema }),
);
