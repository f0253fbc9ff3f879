/**
 * The GitHub App as code host, through Octokit (`@octokit/app`; decision 009). The app
 * authenticates with a short-lived JWT signed with its private key, checks the installation, takes
 * an installation access token and lists the repositories it may see. Tokens are used for one setup
 * and never kept or logged.
 */
import { createPrivateKey } from "node:crypto";
import { App } from "@octokit/app";
import { GitHubError, gitHubErrorOf, isObject, octokitAt } from "../github/client.ts";
import { type CodeHost, type Repository, UnknownInstallationError } from "./code-host.ts";

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
  // Octokit signs the app's JWT with WebCrypto, which reads PKCS#8 only, and GitHub hands out
  // PKCS#1 keys: Node reads both. Converting here also refuses a broken key when the backend starts.
  const privateKey = createPrivateKey(settings.privateKey)
    .export({ type: "pkcs8", format: "pem" })
    .toString();
  const GitHubOctokit = octokitAt(settings.apiUrl);
  // Authenticated as the app: every request carries a fresh JWT (iss = app id, under 10 minutes).
  const app = new App({ appId: settings.id, privateKey, Octokit: GitHubOctokit });
  let installationUrl: Promise<string> | undefined;

  /**
   * A token of the installation, taken for this setup only: asked for directly rather than through
   * `app.getInstallationOctokit`, whose cache would keep it for an hour.
   */
  async function installationToken(installationId: number): Promise<string> {
    const { data: installation } = await app.octokit.rest.apps.getInstallation({
      installation_id: installationId,
    });
    if (!isObject(installation) || installation.suspended_at) {
      throw new UnknownInstallationError("This GitHub App installation is suspended.");
    }
    const { data: token } = await app.octokit.rest.apps.createInstallationAccessToken({
      installation_id: installationId,
    });
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
        const { data } = await app.octokit.rest.apps.getAuthenticated().catch((error: unknown) => {
          throw gitHubErrorOf(error, "/app");
        });
        if (!isObject(data) || typeof data.html_url !== "string") {
          throw new GitHubError("bad-answer", "GitHub's /app answer has no html_url");
        }
        return `${data.html_url.replace(/\/+$/, "")}/installations/new`;
      })();
      installationUrl.catch(() => {
        installationUrl = undefined;
      });
      return installationUrl;
    },

    async repositories(installationId) {
      const id = Number(installationId);
      if (!INSTALLATION_ID.test(installationId) || !Number.isSafeInteger(id)) {
        throw new UnknownInstallationError("This is not a GitHub App installation id.");
      }
      try {
        const installation = new GitHubOctokit({ auth: await installationToken(id) });
        const repositories: Repository[] = [];
        // Octokit follows GitHub's Link headers and unwraps {total_count, repositories} to the list.
        let pages = 0;
        for await (const { data } of installation.paginate.iterator(
          installation.rest.apps.listReposAccessibleToInstallation,
          { per_page: REPOSITORIES_PER_PAGE },
        )) {
          if (!Array.isArray(data)) {
            throw new GitHubError("bad-answer", "GitHub's repository list has no repositories");
          }
          repositories.push(...repositoriesOf(data));
          if (++pages >= REPOSITORY_PAGES_MAX) break;
        }
        return repositories;
      } catch (error) {
        const failure = gitHubErrorOf(error, "installation");
        // 404: unknown, or uninstalled since (GitHub forgets revoked installations).
        if (failure instanceof GitHubError && failure.reason === "not-found") {
          throw new UnknownInstallationError("GitHub does not know this installation, or it was removed.");
        }
        throw failure;
      }
    },
  };
}
