/**
 * The sandbox code host (docs/decisions/009-code-hosts.md): without a GitHub App, Connect leads to
 * our own /sandbox/install page, which stands in for GitHub's "Install the app" page, and setting
 * the installation up imports these sample repositories. Shared so the backend's import and the
 * page that lists what it will grant never disagree. One module for the area: its paths and bounds
 * first, then the valibot schemas of its pull requests, which a page that does not use them
 * tree-shakes away.
 */
import * as v from "valibot";
import { BOT_COMMANDS, reviewRunStatusSchema } from "./reviews.ts";
import { integerSchema, schema } from "./schema.ts";

export const SANDBOX_INSTALLATION_PREFIX = "sandbox-";

const SANDBOX_INSTALLATION = /^sandbox-[0-9a-f]{1,64}$/;

/** The integration the sandbox stands in for. */
export const SANDBOX_INTEGRATION = "github";

/** Where the sandbox's Connect link leads, with `installation_id` and the `code` that proves it. */
export const SANDBOX_INSTALL_PATH = "/sandbox/install";

export const isSandboxInstallationId = (id: string | null): id is string =>
  id !== null && SANDBOX_INSTALLATION.test(id);

/**
 * The installation id of a sandbox Connect link (`…/sandbox/install?installation_id=sandbox-…`);
 * null for any other link, such as a GitHub App's installation page. The one sign that the code
 * host is the sandbox.
 */
export function sandboxInstallationOf(link: string | undefined): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const id = url.searchParams.get("installation_id");
  return url.pathname === SANDBOX_INSTALL_PATH && isSandboxInstallationId(id) ? id : null;
}

/**
 * The installation id and code of a sandbox Connect link: what its install page hands back, as
 * GitHub's setup redirect does. Null for any other link.
 */
export function sandboxConnectOf(link: string | undefined): { installationId: string; code: string } | null {
  const installationId = sandboxInstallationOf(link);
  const code = installationId && new URL(link ?? "").searchParams.get("code");
  return installationId && code ? { installationId, code } : null;
}

/**
 * What GitHub sends the browser back with after an installation, for a sandbox one: its id and the
 * code of its Connect link, which the backend signed for this user (docs/decisions/027-installation-ownership.md).
 */
export function sandboxInstallationCallback(installationId: string, code: string): string {
  return `/installation?${new URLSearchParams({
    setup_action: "install",
    installation_id: installationId,
    code,
  })}`;
}

const REPOSITORY_PULLS = "/api/sandbox/repositories";

const PULLS = "/api/sandbox/pulls";

const COMMENTS = "/api/sandbox/comments";

export const SANDBOX_PULL_PATHS = {
  /** GET: the repository's pull requests, templates and files. POST: open a pull request. */
  pulls: (projectId: string) => `${REPOSITORY_PULLS}/${encodeURIComponent(projectId)}/pulls`,
  /** GET: one pull request with its diff and the reviews posted on it. */
  pull: (pullId: string) => `${PULLS}/${encodeURIComponent(pullId)}`,
  /** POST: push a commit to the pull request's branch (a `synchronize` event). */
  pullCommits: (pullId: string) => `${PULLS}/${encodeURIComponent(pullId)}/commits`,
  /** POST: comment on the pull request (an `issue_comment`; a bot command in it is run). */
  pullComments: (pullId: string) => `${PULLS}/${encodeURIComponent(pullId)}/comments`,
  /** POST: press or release 👍 or 👎 on one of the review's line comments. */
  commentReactions: (commentId: number) => `${COMMENTS}/${commentId}/reactions`,
} as const;

/** The same paths as the backend's router matches them. */
export const SANDBOX_PULL_ROUTES = {
  pulls: `${REPOSITORY_PULLS}/:projectId/pulls`,
  pull: `${PULLS}/:pullId`,
  pullCommits: `${PULLS}/:pullId/commits`,
  pullComments: `${PULLS}/:pullId/comments`,
  commentReactions: `${COMMENTS}/:commentId/reactions`,
} as const;

/** The pages' own paths. */
export const sandboxPullsHref = (projectId: string) =>
  `/sandbox/repositories/${encodeURIComponent(projectId)}/pulls`;

export const sandboxPullHref = (pullId: string) => `/sandbox/pulls/${encodeURIComponent(pullId)}`;

export const SANDBOX_TITLE_MAX = 200;

export const SANDBOX_PATH_MAX = 200;

/** The editor's text; the sample files are a few hundred bytes. */
export const SANDBOX_CONTENT_MAX = 20_000;

/** A comment on a pull request; a command is one line. */
export const SANDBOX_COMMENT_MAX = 5_000;

/**
 * Sandbox pull requests (docs/review-engine.md#sandbox-pull-requests): the sandbox code host's
 * pull requests, opened from a template or from one edited file, reviewed by the review engine and
 * shown with the review as GitHub would hold it. Schemas shared by the backend's router and the
 * pages; the paths are SANDBOX_PULL_PATHS above.
 */

export const sandboxTemplateIdSchema = schema(() =>
  v.picklist([
    "leaked-key",
    "focused-test",
    "conflict-marker",
    "sql-injection",
    "off-by-one",
    "unawaited-check",
    "clean-change",
  ]),
);

export type SandboxTemplateId = v.InferOutput<typeof sandboxTemplateIdSchema>;

export const sandboxTemplateSchema = schema(() =>
  v.object({
    id: sandboxTemplateIdSchema,
    title: v.string(),
    description: v.string(),
    /** The file it changes. */
    path: v.string(),
  }),
);

export type SandboxTemplate = v.InferOutput<typeof sandboxTemplateSchema>;

export const sandboxFileSchema = schema(() => v.object({ path: v.string(), content: v.string() }));

export type SandboxFile = v.InferOutput<typeof sandboxFileSchema>;

export const sandboxPullSummarySchema = schema(() =>
  v.object({
    id: v.string(),
    number: integerSchema,
    title: v.string(),
    author: v.string(),
    headSha: v.string(),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
);

export type SandboxPullSummary = v.InferOutput<typeof sandboxPullSummarySchema>;

const repositorySchema = schema(() =>
  v.object({ id: v.string(), fullName: v.string(), defaultBranch: v.string() }),
);

/** GET SANDBOX_PULL_PATHS.pulls */
export const sandboxPullsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({
      repository: repositorySchema,
      templates: v.array(sandboxTemplateSchema),
      /** The default branch's files, which the editor starts from. */
      files: v.array(sandboxFileSchema),
      pulls: v.array(sandboxPullSummarySchema),
    }),
  }),
);

export type SandboxPullsData = v.InferOutput<typeof sandboxPullsResponseSchema>["data"];

/** POST SANDBOX_PULL_PATHS.pullCommits: one file's new text. */
export const sandboxCommitSchema = schema(() =>
  v.strictObject({
    path: v.pipe(v.string(), v.minLength(1), v.maxLength(SANDBOX_PATH_MAX)),
    content: v.pipe(v.string(), v.maxLength(SANDBOX_CONTENT_MAX)),
  }),
);

/** POST SANDBOX_PULL_PATHS.pulls: from a template, or one file's new text with a title. */
export const sandboxPullCreateSchema = schema(() =>
  v.union([
    v.strictObject({ template: sandboxTemplateIdSchema }),
    v.strictObject({
      title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(SANDBOX_TITLE_MAX)),
      ...sandboxCommitSchema.entries,
    }),
  ]),
);

export type SandboxPullCreate = v.InferOutput<typeof sandboxPullCreateSchema>;

export type SandboxCommit = v.InferOutput<typeof sandboxCommitSchema>;

/** POST SANDBOX_PULL_PATHS.pullComments: a comment's Markdown. */
export const sandboxCommentSchema = schema(() =>
  v.strictObject({
    body: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(SANDBOX_COMMENT_MAX)),
  }),
);

export type SandboxComment = v.InferOutput<typeof sandboxCommentSchema>;

/** What a comment answers: the command it gave the bot (null for none) and the run it queued. */
export const sandboxCommentPostedSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({
      id: integerSchema,
      command: v.nullable(v.picklist(BOT_COMMANDS)),
      runId: v.nullable(v.string()),
    }),
  }),
);

/** What opening a pull request or pushing to it answers. */
export const sandboxPullCreatedSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({ id: v.string(), number: integerSchema, headSha: v.string() }),
  }),
);

export const sandboxDiffLineSchema = schema(() =>
  v.object({
    kind: v.picklist(["add", "del", "context"]),
    text: v.string(),
    oldLine: v.nullable(integerSchema),
    newLine: v.nullable(integerSchema),
  }),
);

export type SandboxDiffLine = v.InferOutput<typeof sandboxDiffLineSchema>;

export const sandboxDiffFileSchema = schema(() =>
  v.object({
    path: v.string(),
    status: v.picklist(["added", "modified", "removed", "renamed"]),
    additions: integerSchema,
    deletions: integerSchema,
    /** The file's whole text at head (null once removed): what the page's editor starts from. */
    headContent: v.nullable(v.string()),
    hunks: v.array(
      v.object({
        header: v.string(),
        lines: v.array(sandboxDiffLineSchema),
      }),
    ),
  }),
);

export type SandboxDiffFile = v.InferOutput<typeof sandboxDiffFileSchema>;

/** The two reactions the sandbox takes on a review comment, in GitHub's words (👍 and 👎). */
export const sandboxReactionSchema = schema(() => v.picklist(["+1", "-1"]));

export type SandboxReaction = v.InferOutput<typeof sandboxReactionSchema>;

/** A comment's reactions: the counts, and which of them are the signed-in person's. */
export const sandboxReactionsSchema = schema(() =>
  v.object({
    "+1": v.pipe(v.number(), v.integer(), v.minValue(0)),
    "-1": v.pipe(v.number(), v.integer(), v.minValue(0)),
    mine: v.array(sandboxReactionSchema),
  }),
);

export type SandboxReactions = v.InferOutput<typeof sandboxReactionsSchema>;

/** POST SANDBOX_PULL_PATHS.commentReactions: press (or release) one reaction. */
export const sandboxReactSchema = schema(() =>
  v.strictObject({ content: sandboxReactionSchema, pressed: v.boolean() }),
);

export type SandboxReact = v.InferOutput<typeof sandboxReactSchema>;

/** What a reaction answers: the comment's reactions now. */
export const sandboxReactionsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: sandboxReactionsSchema,
  }),
);

/** A comment on one right-side line, as GitHub holds a pull request review comment. */
export const sandboxReviewCommentSchema = schema(() =>
  v.object({
    id: integerSchema,
    path: v.string(),
    line: integerSchema,
    side: v.literal("RIGHT"),
    commitId: v.string(),
    body: v.string(),
    reactions: sandboxReactionsSchema,
    /** Resolved by the review engine once a push fixed its finding, as GitHub resolves a thread. */
    resolved: v.boolean(),
  }),
);

export type SandboxReviewComment = v.InferOutput<typeof sandboxReviewCommentSchema>;

/** A posted review (its summary and line comments), or a plain comment (no commit, no line comments). */
export const sandboxReviewSchema = schema(() =>
  v.object({
    id: integerSchema,
    kind: v.picklist(["review", "comment"]),
    /** Who commented; null for what the review engine posted. */
    author: v.nullable(v.string()),
    commitId: v.nullable(v.string()),
    body: v.string(),
    createdAt: v.string(),
    comments: v.array(sandboxReviewCommentSchema),
  }),
);

export type SandboxReview = v.InferOutput<typeof sandboxReviewSchema>;

/** A check on a commit, as GitHub holds a check run: `conclusion` is null while it runs. */
export const sandboxCheckSchema = schema(() =>
  v.object({
    id: integerSchema,
    name: v.string(),
    conclusion: v.nullable(v.picklist(["success", "neutral", "skipped"])),
    title: v.string(),
    summary: v.string(),
    detailsUrl: v.string(),
  }),
);

export type SandboxCheck = v.InferOutput<typeof sandboxCheckSchema>;

/** GET SANDBOX_PULL_PATHS.pull */
export const sandboxPullResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({
      ...sandboxPullSummarySchema.entries,
      projectId: v.string(),
      repository: v.string(),
      baseSha: v.string(),
      baseRef: v.string(),
      headRef: v.string(),
      files: v.array(sandboxDiffFileSchema),
      reviews: v.array(sandboxReviewSchema),
      /** The checks on the head commit (the review's, the latest of each name), as GitHub shows them. */
      checks: v.array(sandboxCheckSchema),
      /** The newest review run of this pull request, while the page waits for its review. */
      latestRun: v.nullable(v.object({ id: v.string(), status: reviewRunStatusSchema })),
    }),
  }),
);

export type SandboxPullDetail = v.InferOutput<typeof sandboxPullResponseSchema>["data"];
