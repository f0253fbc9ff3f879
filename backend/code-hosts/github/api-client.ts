/**
 * GitHub, for sign-in: the OAuth code exchange and the two REST calls that say who the user is and
 * which of their addresses GitHub verified (Firebase does not vouch for GitHub addresses). The REST
 * calls go through Octokit (`octokitAt`, shared with the GitHub App); the code exchange
 * (`exchangeOAuthCode`, shared with the App's setup, whose own OAuth client exchanges the setup
 * redirect's code) is a plain POST to GITHUB_OAUTH_URL, GitHub's web host, which Octokit's REST
 * client does not cover. Tests point both at tests/support/fake-github.ts.
 */
import { Octokit } from "@octokit/rest";
import type { BackendConfig } from "../../config.ts";

/** How long one call to GitHub may take. */
const GITHUB_TIMEOUT_MS = 10_000;
/** Pinned so that GitHub's answers keep the shapes this code and the fake were written for. */
const GITHUB_API_VERSION = "2022-11-28";
/** Octokit appends its own; GitHub refuses API requests without a User-Agent. */
const USER_AGENT = "argus-backend";

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
}

export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

export class GitHubError extends Error {
  override name = "GitHubError";
  /**
   * "bad-code": the OAuth code is wrong, expired or used; "unauthorized": GitHub refused the access
   * token; "not-found": GitHub answered 404 (for an app: an installation that is unknown or
   * revoked); "unavailable": GitHub could not be reached; "bad-answer": it answered with an error
   * or an unexpected body.
   */
  readonly reason: "bad-code" | "unauthorized" | "not-found" | "unavailable" | "bad-answer";

  constructor(reason: GitHubError["reason"], message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

export interface GitHubClient {
  /** Whether the OAuth app (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET) is configured. */
  readonly canExchangeCodes: boolean;
  /** POST /login/oauth/access_token: the access token for an OAuth code. */
  exchangeCode(code: string): Promise<string>;
  /** GET /user */
  user(accessToken: string): Promise<GitHubUser>;
  /** GET /user/emails (scope user:email) */
  emails(accessToken: string): Promise<GitHubEmail[]>;
}

async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS) });
  } catch (error) {
    throw new GitHubError("unavailable", `GitHub could not be reached (${new URL(url).pathname})`, {
      cause: error,
    });
  }
}

async function json(response: Response, what: string): Promise<unknown> {
  if (response.status === 401)
    throw new GitHubError("unauthorized", `GitHub refused the access token (${what})`);
  if (response.status === 404) throw new GitHubError("not-found", `GitHub answered 404 (${what})`);
  if (!response.ok) throw new GitHubError("bad-answer", `GitHub answered ${response.status} (${what})`);
  try {
    return await response.json();
  } catch (error) {
    throw new GitHubError("bad-answer", `GitHub answered something other than JSON (${what})`, {
      cause: error,
    });
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/**
 * Octokit against GITHUB_API_URL (GitHub, GitHub Enterprise or the tests' fake), with our timeout
 * and API version. Map its failures with `gitHubErrorOf`.
 */
export function octokitAt(apiUrl: string) {
  return Octokit.plugin((octokit) => {
    octokit.hook.before("request", (options) => {
      options.headers["x-github-api-version"] = GITHUB_API_VERSION;
    });
  }).defaults({
    baseUrl: apiUrl,
    userAgent: USER_AGENT,
    // Octokit would print each failed request to the console; callers map and report failures.
    // Its warnings (a deprecated endpoint) stay.
    log: { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} },
    request: {
      fetch: (url: string, init: RequestInit) =>
        fetch(url, { ...init, signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS) }),
    },
  });
}

/**
 * Octokit's failure as a GitHubError. Octokit throws an "HttpError" with GitHub's status, or
 * without a response when GitHub was not reached or too slow (its fetch failed).
 */
export function gitHubErrorOf(error: unknown, what: string): unknown {
  if (!(error instanceof Error) || error.name !== "HttpError") return error;
  const status = "status" in error ? error.status : undefined;
  if (!("response" in error) || error.response === undefined) {
    return new GitHubError("unavailable", `GitHub could not be reached (${what})`, { cause: error });
  }
  if (status === 401) return new GitHubError("unauthorized", `GitHub refused the access token (${what})`);
  if (status === 404) return new GitHubError("not-found", `GitHub answered 404 (${what})`);
  return new GitHubError("bad-answer", `GitHub answered ${String(status)} (${what})`, { cause: error });
}

/**
 * POST /login/oauth/access_token on GitHub's web host (`oauthUrl`): the access token an OAuth
 * client's code stands for. Throws GitHubError "bad-code" for a wrong, expired, used or another
 * client's code. An OAuth app's code gives an OAuth token, a GitHub App's a user-to-server token.
 */
export async function exchangeOAuthCode(
  oauthUrl: string,
  client: { clientId: string; clientSecret: string },
  code: string,
): Promise<string> {
  const response = await call(`${oauthUrl}/login/oauth/access_token`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({ client_id: client.clientId, client_secret: client.clientSecret, code }),
  });
  const body = await json(response, "/login/oauth/access_token");
  // GitHub answers 200 with {error: "bad_verification_code", ...} for a wrong or used code.
  if (isObject(body) && typeof body.access_token === "string") return body.access_token;
  if (isObject(body) && body.error === "bad_verification_code") {
    throw new GitHubError("bad-code", "GitHub refused the OAuth code");
  }
  const error = isObject(body) && typeof body.error === "string" ? body.error : "no access token";
  throw new GitHubError("bad-answer", `GitHub's code exchange failed: ${error}`);
}

export function createGitHubClient(github: BackendConfig["github"]): GitHubClient {
  const { clientId, clientSecret } = github;
  const GitHubOctokit = octokitAt(github.apiUrl);

  return {
    canExchangeCodes: Boolean(clientId && clientSecret),

    async exchangeCode(code) {
      if (!clientId || !clientSecret) throw new Error("The GitHub OAuth app is not configured");
      return exchangeOAuthCode(github.oauthUrl, { clientId, clientSecret }, code);
    },

    async user(accessToken) {
      const body: unknown = await new GitHubOctokit({ auth: accessToken }).rest.users.getAuthenticated().then(
        ({ data }) => data,
        (error: unknown) => {
          throw gitHubErrorOf(error, "/user");
        },
      );
      // Octokit's types say what GitHub documents, not what answered: a proxy or an outage can differ.
      if (!isObject(body) || typeof body.id !== "number" || typeof body.login !== "string") {
        throw new GitHubError("bad-answer", "GitHub's /user answer has no id");
      }
      return { id: body.id, login: body.login, name: typeof body.name === "string" ? body.name : null };
    },

    async emails(accessToken) {
      const body: unknown = await new GitHubOctokit({ auth: accessToken }).rest.users
        .listEmailsForAuthenticatedUser()
        .then(
          ({ data }) => data,
          (error: unknown) => {
            throw gitHubErrorOf(error, "/user/emails");
          },
        );
      if (!Array.isArray(body))
        throw new GitHubError("bad-answer", "GitHub's /user/emails answer is not a list");
      return body
        .filter(isObject)
        .flatMap((entry) =>
          typeof entry.email === "string"
            ? [{ email: entry.email, primary: entry.primary === true, verified: entry.verified === true }]
            : [],
        );
    },
  };
}
