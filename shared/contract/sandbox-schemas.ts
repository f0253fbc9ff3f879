/** The zod schemas of shared/contract/sandbox.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { BOT_COMMANDS } from "./reviews.ts";
import { reviewRunStatusSchema } from "./reviews-schemas.ts";
import { SANDBOX_COMMENT_MAX, SANDBOX_CONTENT_MAX, SANDBOX_PATH_MAX, SANDBOX_TITLE_MAX } from "./sandbox.ts";

/**
 * Sandbox pull requests (docs/review-engine.md#sandbox-pull-requests): the sandbox code host's
 * pull requests, opened from a template or from one edited file, reviewed by the review engine and
 * shown with the review as GitHub would hold it. Schemas shared by the backend's router and the
 * pages; the paths are in review-paths.ts.
 */

export const sandboxTemplateIdSchema = z.enum([
  "leaked-key",
  "focused-test",
  "conflict-marker",
  "clean-change",
]);

export type SandboxTemplateId = z.infer<typeof sandboxTemplateIdSchema>;

export const sandboxTemplateSchema = z.object({
  id: sandboxTemplateIdSchema,
  title: z.string(),
  description: z.string(),
  /** The file it changes. */
  path: z.string(),
});

export type SandboxTemplate = z.infer<typeof sandboxTemplateSchema>;

export const sandboxFileSchema = z.object({ path: z.string(), content: z.string() });

export type SandboxFile = z.infer<typeof sandboxFileSchema>;

export const sandboxPullSummarySchema = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  author: z.string(),
  headSha: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type SandboxPullSummary = z.infer<typeof sandboxPullSummarySchema>;

const repositorySchema = z.object({ id: z.string(), fullName: z.string(), defaultBranch: z.string() });

/** GET SANDBOX_PULL_PATHS.pulls */
export const sandboxPullsResponseSchema = z.object({
  success: z.boolean(),
  data: z.object({
    repository: repositorySchema,
    templates: z.array(sandboxTemplateSchema),
    /** The default branch's files, which the editor starts from. */
    files: z.array(sandboxFileSchema),
    pulls: z.array(sandboxPullSummarySchema),
  }),
});

export type SandboxPullsData = z.infer<typeof sandboxPullsResponseSchema>["data"];

const editedFile = {
  path: z.string().min(1).max(SANDBOX_PATH_MAX),
  content: z.string().max(SANDBOX_CONTENT_MAX),
};

/** POST SANDBOX_PULL_PATHS.pulls: from a template, or one file's new text with a title. */
export const sandboxPullCreateSchema = z.union([
  z.object({ template: sandboxTemplateIdSchema }).strict(),
  z.object({ title: z.string().trim().min(1).max(SANDBOX_TITLE_MAX), ...editedFile }).strict(),
]);

export type SandboxPullCreate = z.infer<typeof sandboxPullCreateSchema>;

/** POST SANDBOX_PULL_PATHS.pullCommits: one file's new text. */
export const sandboxCommitSchema = z.object(editedFile).strict();

export type SandboxCommit = z.infer<typeof sandboxCommitSchema>;

/** POST SANDBOX_PULL_PATHS.pullComments: a comment's Markdown. */
export const sandboxCommentSchema = z
  .object({ body: z.string().trim().min(1).max(SANDBOX_COMMENT_MAX) })
  .strict();

export type SandboxComment = z.infer<typeof sandboxCommentSchema>;

/** What a comment answers: the command it gave the bot (null for none) and the run it queued. */
export const sandboxCommentPostedSchema = z.object({
  success: z.boolean(),
  data: z.object({
    id: z.number().int(),
    command: z.enum(BOT_COMMANDS).nullable(),
    runId: z.string().nullable(),
  }),
});

/** What opening a pull request or pushing to it answers. */
export const sandboxPullCreatedSchema = z.object({
  success: z.boolean(),
  data: z.object({ id: z.string(), number: z.number().int(), headSha: z.string() }),
});

export const sandboxDiffLineSchema = z.object({
  kind: z.enum(["add", "del", "context"]),
  text: z.string(),
  oldLine: z.number().int().nullable(),
  newLine: z.number().int().nullable(),
});

export type SandboxDiffLine = z.infer<typeof sandboxDiffLineSchema>;

export const sandboxDiffFileSchema = z.object({
  path: z.string(),
  status: z.enum(["added", "modified", "removed", "renamed"]),
  additions: z.number().int(),
  deletions: z.number().int(),
  /** The file's whole text at head (null once removed): what the page's editor starts from. */
  headContent: z.string().nullable(),
  hunks: z.array(
    z.object({
      header: z.string(),
      lines: z.array(sandboxDiffLineSchema),
    }),
  ),
});

export type SandboxDiffFile = z.infer<typeof sandboxDiffFileSchema>;

/** The two reactions the sandbox takes on a review comment, in GitHub's words (👍 and 👎). */
export const sandboxReactionSchema = z.enum(["+1", "-1"]);

export type SandboxReaction = z.infer<typeof sandboxReactionSchema>;

/** A comment's reactions: the counts, and which of them are the signed-in person's. */
export const sandboxReactionsSchema = z.object({
  "+1": z.number().int().nonnegative(),
  "-1": z.number().int().nonnegative(),
  mine: z.array(sandboxReactionSchema),
});

export type SandboxReactions = z.infer<typeof sandboxReactionsSchema>;

/** POST SANDBOX_PULL_PATHS.commentReactions: press (or release) one reaction. */
export const sandboxReactSchema = z.object({ content: sandboxReactionSchema, pressed: z.boolean() }).strict();

export type SandboxReact = z.infer<typeof sandboxReactSchema>;

/** What a reaction answers: the comment's reactions now. */
export const sandboxReactionsResponseSchema = z.object({
  success: z.boolean(),
  data: sandboxReactionsSchema,
});

/** A comment on one right-side line, as GitHub holds a pull request review comment. */
export const sandboxReviewCommentSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  line: z.number().int(),
  side: z.literal("RIGHT"),
  commitId: z.string(),
  body: z.string(),
  reactions: sandboxReactionsSchema,
});

export type SandboxReviewComment = z.infer<typeof sandboxReviewCommentSchema>;

/** A posted review (its summary and line comments), or a plain comment (no commit, no line comments). */
export const sandboxReviewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(["review", "comment"]),
  /** Who commented; null for what the review engine posted. */
  author: z.string().nullable(),
  commitId: z.string().nullable(),
  body: z.string(),
  createdAt: z.string(),
  comments: z.array(sandboxReviewCommentSchema),
});

export type SandboxReview = z.infer<typeof sandboxReviewSchema>;

/** GET SANDBOX_PULL_PATHS.pull */
export const sandboxPullResponseSchema = z.object({
  success: z.boolean(),
  data: sandboxPullSummarySchema.extend({
    projectId: z.string(),
    repository: z.string(),
    baseSha: z.string(),
    baseRef: z.string(),
    headRef: z.string(),
    files: z.array(sandboxDiffFileSchema),
    reviews: z.array(sandboxReviewSchema),
    /** The newest review run of this pull request, while the page waits for its review. */
    latestRun: z.object({ id: z.string(), status: reviewRunStatusSchema }).nullable(),
  }),
});

export type SandboxPullDetail = z.infer<typeof sandboxPullResponseSchema>["data"];
