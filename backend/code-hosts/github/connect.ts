/**
 * The GitHub App as code host, through Octokit (`@octokit/app`; decision 009). The app
 * authenticates with a short-lived JWT signed with its private key, checks the installation, takes
 * an installation access token and lists the repositories it may see, the people committing to them
 * or one account by username. Before a setup, the `code` of GitHub's setup redirect is exchanged
 * with the App's own OAuth client for a user token, and the installation must be among the user's
 * (`GET /user/installations`; decision 027). Tokens are used for one call and never kept or logged.
 */
import { createPrivateKey } from "node:crypto";
import { App } from "@octokit/app";
import {
  type CodeHostPerson,
  type InstallationFlow,
  InstallationNotProvenError,
  type Repository,
  UnknownInstallationError,
} from "../code-host.ts";
import { exchangeOAuthCode, GitHubError, gitHubErrorOf, isObject, octokitAt } from "./api-client.ts";

const REPOSITORIES_PER_PAGE = 100;
const INSTALLATIONS_PER_PAGE = 100;
/** A user reaches at most this many pages of installations of the app before the search stops. */
const INSTALLATION_PAGES_MAX = 20;
/** 100 pages of 100: an installation larger than this is cut, not looped over forever. */
const REPOSITORY_PAGES_MAX = 100;
const INSTALLATION_ID = /^\d{1,20}$/;
/** GitHub's rule for usernames: letters, digits and single inner hyphens, at most 39. */
const GITHUB_LOGIN = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}$/i;
/** The import reads the latest page of commits of at most this many repositories. */
const CONTRIBUTOR_REPOSITORIES_MAX = 30;
const COMMITS_PER_PAGE = 100;
/** Where GitHub's private commit addresses end: not an address to show. */
const NOREPLY_SUFFIX = "users.noreply.github.com";

type GitHubOctokitClient = InstanceType<ReturnType<typeof octokitAt>>;

export interface GitHubAppSettings {
  id: string;
  /** PEM, PKCS#1 (as GitHub hands it out) or PKCS#8. */
  privateKey: string;
  apiUrl: string;
  /** The App's own OAuth client, which exchanges its setup redirect's code, on GitHub's web host. */
  clientId: string;
  clientSecret: string;
  oauthUrl: string;
}

/**
 * Whether the user of `userToken` can reach the installation: GitHub lists it among the app's
 * installations they have access to (GET /user/installations, paged; Octokit unwraps the list).
 */
async function userReaches(
  GitHubOctokit: ReturnType<typeof octokitAt>,
  userToken: string,
  installationId: string,
): Promise<boolean> {
  const user = new GitHubOctokit({ auth: userToken });
  let pages = 0;
  for await (const { data } of user.paginate.iterator(user.rest.apps.listInstallationsForAuthenticatedUser, {
    per_page: INSTALLATIONS_PER_PAGE,
  })) {
    if (!Array.isArray(data)) throw new GitHubError("bad-answer", "GitHub's installation list is not a list");
    if (data.some((installation) => isObject(installation) && String(installation.id) === installationId)) {
      return true;
    }
    if (++pages >= INSTALLATION_PAGES_MAX) break;
  }
  return false;
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

async function listRepositories(installation: GitHubOctokitClient): Promise<Repository[]> {
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
}

const stringOrNull = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/** GitHub's "public-user" (GET /users/{username}) as a person; undefined without a login. */
function accountOf(data: unknown): CodeHostPerson | null {
  if (!isObject(data) || typeof data.login !== "string") return null;
  return {
    login: data.login,
    name: stringOrNull(data.name),
    email: stringOrNull(data.email),
    avatar_url: stringOrNull(data.avatar_url),
    last_activity: null,
  };
}

/**
 * The people behind a repository's latest commits, newest first, each once. Commits GitHub could
 * not tie to an account, and bots, are left out; an empty or no longer reachable repository has none.
 */
async function recentCommitters(
  installation: GitHubOctokitClient,
  fullName: string,
): Promise<CodeHostPerson[]> {
  const [owner = "", repo = ""] = fullName.split("/");
  let commits: unknown;
  try {
    ({ data: commits } = await installation.rest.repos.listCommits({
      owner,
      repo,
      per_page: COMMITS_PER_PAGE,
    }));
  } catch (error) {
    // 409: an empty repository; 404: one removed from the installation since it was stored.
    if (isObject(error) && (error.status === 409 || error.status === 404)) return [];
    throw error;
  }
  if (!Array.isArray(commits)) throw new GitHubError("bad-answer", "GitHub's commit list is not a list");
  const people = new Map<string, CodeHostPerson>();
  for (const entry of commits) {
    if (!isObject(entry) || !isObject(entry.author) || !isObject(entry.commit)) continue;
    const { author } = entry;
    const gitAuthor = isObject(entry.commit.author) ? entry.commit.author : {};
    if (typeof author.login !== "string" || author.type === "Bot" || people.has(author.login)) continue;
    const email = stringOrNull(gitAuthor.email);
    people.set(author.login, {
      login: author.login,
      name: stringOrNull(gitAuthor.name),
      email: email?.endsWith(NOREPLY_SUFFIX) ? null : email,
      avatar_url: stringOrNull(author.avatar_url),
      last_activity: stringOrNull(gitAuthor.date),
    });
  }
  return [...people.values()];
}

export function createGitHubApp(settings: GitHubAppSettings): InstallationFlow {
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
   * `app.getGitHubOctokitClient`, whose cache would keep it for an hour.
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

  /**
   * Runs `work` with an Octokit of the installation (its own token, taken for this call); an
   * unknown, removed or suspended installation throws UnknownInstallationError.
   */
  async function withInstallation<T>(
    installationId: string,
    work: (installation: GitHubOctokitClient) => Promise<T>,
  ): Promise<T> {
    const id = Number(installationId);
    if (!INSTALLATION_ID.test(installationId) || !Number.isSafeInteger(id)) {
      throw new UnknownInstallationError("This is not a GitHub App installation id.");
    }
    try {
      return await work(new GitHubOctokit({ auth: await installationToken(id) }));
    } catch (error) {
      const failure = gitHubErrorOf(error, "installation");
      // 404: unknown, or uninstalled since (GitHub forgets revoked installations).
      if (failure instanceof GitHubError && failure.reason === "not-found") {
        throw new UnknownInstallationError("GitHub does not know this installation, or it was removed.");
      }
      throw failure;
    }
  }

  return {
    kind: "github-app",

    async proveInstallation(installationId, code, _installer) {
      const notProven = () =>
        new InstallationNotProvenError("GitHub does not show this installation to the user of this code.");
      try {
        const userToken = await exchangeOAuthCode(
          settings.oauthUrl,
          { clientId: settings.clientId, clientSecret: settings.clientSecret },
          code,
        );
        if (!(await userReaches(GitHubOctokit, userToken, installationId))) throw notProven();
      } catch (error) {
        const failure = gitHubErrorOf(error, "/user/installations");
        // A wrong, used or foreign code, or a token GitHub refuses: the same answer as a stranger's id.
        if (
          failure instanceof GitHubError &&
          (failure.reason === "bad-code" || failure.reason === "unauthorized")
        ) {
          throw notProven();
        }
        throw failure;
      }
    },

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

    repositories(installationId) {
      return withInstallation(installationId, listRepositories);
    },

    contributors(installationId, repositories) {
      return withInstallation(installationId, async (installation) => {
        const people = new Map<string, CodeHostPerson>();
        for (const repository of repositories.slice(0, CONTRIBUTOR_REPOSITORIES_MAX)) {
          for (const person of await recentCommitters(installation, repository.full_name)) {
            const known = people.get(person.login);
            if (!known || (person.last_activity ?? "") > (known.last_activity ?? "")) {
              people.set(person.login, person);
            }
          }
        }
        return [...people.values()];
      });
    },

    lookupUser(installationId, username) {
      if (!GITHUB_LOGIN.test(username)) return Promise.resolve(null);
      return withInstallation(installationId, async (installation) => {
        try {
          const { data } = await installation.rest.users.getByUsername({ username });
          return accountOf(data);
        } catch (error) {
          const failure = gitHubErrorOf(error, "/users/{username}");
          if (failure instanceof GitHubError && failure.reason === "not-found") return null;
          throw failure;
        }
      });
    },

    // Anyone on GitHub may be added: there is no list to offer.
    async knownPeople() {
      return null;
    },
  };
}
