/**
 * The GitHub App as code host, with plain fetch in GitHub's documented shapes (no SDK; decision
 * 009). The app authenticates with a short-lived JWT signed with its private key, checks the
 * installation, takes an installation access token and lists the repositories it may see.
 * Tokens are used for one setup and never kept or logged.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { API_HEADERS, call, GitHubError, isObject, json } from "../github/client.ts";
import { type CodeHost, type Repository, UnknownInstallationError } from "./code-host.ts";

/** GitHub accepts app JWTs that expire at most 10 minutes after they were issued. */
const APP_JWT_LIFETIME_SECONDS = 9 * 60;
/** Issued a minute in the past, so a clock running ahead of GitHub's does not void the JWT. */
const CLOCK_DRIFT_SECONDS = 60;
const REPOSITORIES_PER_PAGE = 100;
/** 100 pages of 100: an installation larger than this is cut, not looped over forever. */
const REPOSITORY_PAGES_MAX = 100;
const INSTALLATION_ID = /^\d{1,20}$/;

export interface GitHubAppSettings {
  id: string;
  /** PEM, PKCS#1 (as GitHub hands it out) or PKCS#8. */
  privateKey: string;
  apiUrl: string;
}

function repositoryOf(entry: unknown, webUrl: string | undefined): Repository | undefined {
  if (!isObject(entry) || typeof entry.id !== "number" || typeof entry.name !== "string") return undefined;
  if (typeof entry.full_name !== "string") return undefined;
  const htmlUrl =
    typeof entry.html_url === "string" ? entry.html_url : webUrl && `${webUrl}/${entry.full_name}`;
  if (!htmlUrl) return undefined;
  return {
    id: String(entry.id),
    name: entry.name,
    full_name: entry.full_name,
    private: entry.private === true,
    description: typeof entry.description === "string" ? entry.description : null,
    default_branch: typeof entry.default_branch === "string" ? entry.default_branch : undefined,
    fork: entry.fork === true,
    html_url: htmlUrl,
  };
}

/**
 * The repositories of an API answer or a webhook payload, those with the fields we need. Webhook
 * payloads describe a repository briefly (no html_url): `webUrl`, GitHub's web host, makes its link.
 */
export function repositoriesOf(entries: unknown, webUrl?: string): Repository[] {
  return Array.isArray(entries) ? entries.flatMap((entry) => repositoryOf(entry, webUrl) ?? []) : [];
}

export function createGitHubApp(settings: GitHubAppSettings): CodeHost {
  // createPrivateKey reads both PEM forms; jose's importPKCS8 would refuse GitHub's PKCS#1 keys.
  const privateKey: KeyObject = createPrivateKey(settings.privateKey);
  let installationUrl: Promise<string> | undefined;

  const appJwt = () => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(settings.id)
      .setIssuedAt(now - CLOCK_DRIFT_SECONDS)
      .setExpirationTime(now - CLOCK_DRIFT_SECONDS + APP_JWT_LIFETIME_SECONDS)
      .sign(privateKey);
  };

  async function api(path: string, authorization: string, method = "GET"): Promise<unknown> {
    const response = await call(`${settings.apiUrl}${path}`, {
      method,
      headers: { ...API_HEADERS, authorization },
    });
    return json(response, new URL(path, "http://x").pathname);
  }

  async function installationToken(installationId: string): Promise<string> {
    const app = `Bearer ${await appJwt()}`;
    const installation = await api(`/app/installations/${installationId}`, app);
    if (!isObject(installation) || installation.suspended_at) {
      throw new UnknownInstallationError("This GitHub App installation is suspended.");
    }
    const token = await api(`/app/installations/${installationId}/access_tokens`, app, "POST");
    if (!isObject(token) || typeof token.token !== "string") {
      throw new GitHubError("bad-answer", "GitHub's access token answer has no token");
    }
    return token.token;
  }

  return {
    kind: "github-app",

    installationUrl() {
      // GET /app names the app's page; its installations/new is where an installation starts.
      installationUrl ??= (async () => {
        const app = await api("/app", `Bearer ${await appJwt()}`);
        if (!isObject(app) || typeof app.html_url !== "string") {
          throw new GitHubError("bad-answer", "GitHub's /app answer has no html_url");
        }
        return `${app.html_url.replace(/\/+$/, "")}/installations/new`;
      })();
      installationUrl.catch(() => {
        installationUrl = undefined;
      });
      return installationUrl;
    },

    async repositories(installationId) {
      if (!INSTALLATION_ID.test(installationId)) {
        throw new UnknownInstallationError("This is not a GitHub App installation id.");
      }
      try {
        const token = `token ${await installationToken(installationId)}`;
        const repositories: Repository[] = [];
        for (let page = 1; page <= REPOSITORY_PAGES_MAX; page++) {
          const body = await api(
            `/installation/repositories?per_page=${REPOSITORIES_PER_PAGE}&page=${page}`,
            token,
          );
          if (!isObject(body) || !Array.isArray(body.repositories)) {
            throw new GitHubError("bad-answer", "GitHub's repository list has no repositories");
          }
          repositories.push(...repositoriesOf(body.repositories));
          const total = typeof body.total_count === "number" ? body.total_count : 0;
          if (body.repositories.length < REPOSITORIES_PER_PAGE || page * REPOSITORIES_PER_PAGE >= total)
            break;
        }
        return repositories;
      } catch (error) {
        // 404: unknown, or uninstalled since (GitHub forgets revoked installations).
        if (error instanceof GitHubError && error.reason === "not-found") {
          throw new UnknownInstallationError("GitHub does not know this installation, or it was removed.");
        }
        throw error;
      }
    },
  };
}
