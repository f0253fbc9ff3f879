/**
 * GitHub, for sign-in: the OAuth code exchange and the two REST calls that say who the user is and
 * which of their addresses GitHub verified (Firebase does not vouch for GitHub addresses). Plain
 * fetch against GITHUB_OAUTH_URL and GITHUB_API_URL, in GitHub's documented shapes; tests point
 * both at tests/support/fake-github.ts.
 */
import type { BackendConfig } from "../config.ts";

/** How long one call to GitHub may take. */
const GITHUB_TIMEOUT_MS = 10_000;
export const API_HEADERS = {
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
  // GitHub refuses API requests without a User-Agent.
  "user-agent": "argus-backend",
};

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

export async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS) });
  } catch (error) {
    throw new GitHubError("unavailable", `GitHub could not be reached (${new URL(url).pathname})`, {
      cause: error,
    });
  }
}

export async function json(response: Response, what: string): Promise<unknown> {
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

export function createGitHubClient(github: BackendConfig["github"]): GitHubClient {
  const { clientId, clientSecret } = github;
  const api = async (accessToken: string, path: string) =>
    json(
      await call(`${github.apiUrl}${path}`, {
        headers: { ...API_HEADERS, authorization: `Bearer ${accessToken}` },
      }),
      path,
    );

  return {
    canExchangeCodes: Boolean(clientId && clientSecret),

    async exchangeCode(code) {
      if (!clientId || !clientSecret) throw new Error("The GitHub OAuth app is not configured");
      const response = await call(`${github.oauthUrl}/login/oauth/access_token`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, code }),
      });
      const body = await json(response, "/login/oauth/access_token");
      // GitHub answers 200 with {error: "bad_verification_code", ...} for a wrong or used code.
      if (isObject(body) && typeof body.access_token === "string") return body.access_token;
      if (isObject(body) && body.error === "bad_verification_code") {
        throw new GitHubError("bad-code", "GitHub refused the OAuth code");
      }
      const error = isObject(body) && typeof body.error === "string" ? body.error : "no access token";
      throw new GitHubError("bad-answer", `GitHub's code exchange failed: ${error}`);
    },

    async user(accessToken) {
      const body = await api(accessToken, "/user");
      if (!isObject(body) || typeof body.id !== "number" || typeof body.login !== "string") {
        throw new GitHubError("bad-answer", "GitHub's /user answer has no id");
      }
      return { id: body.id, login: body.login, name: typeof body.name === "string" ? body.name : null };
    },

    async emails(accessToken) {
      const body = await api(accessToken, "/user/emails");
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
