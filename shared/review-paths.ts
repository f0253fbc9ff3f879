/**
 * Paths and limits of the review screens and of the sandbox's pull requests, without zod, so pages
 * import them statically (docs/decisions/006-page-weight.md); the schemas are in
 * review-contract.ts and sandbox-review-contract.ts.
 */

/** GET, text/event-stream: a `run` event with the run's summary whenever one of the organisation's runs changes. */
export const REVIEW_EVENTS_PATH = "/api/reviews/events";

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
