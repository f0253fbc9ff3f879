/**
 * The sandbox code host (docs/decisions/009-code-hosts.md): without a GitHub App, Connect leads to
 * our own /sandbox/install page, which stands in for GitHub's "Install the app" page, and setting
 * the installation up imports these sample repositories. Shared so the backend's import and the
 * page that lists what it will grant never disagree.
 */

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
