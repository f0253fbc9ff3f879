/**
 * A local stand-in for GitHub's OAuth endpoint and the REST calls sign-in makes, on a loopback
 * port, answering in GitHub's documented shapes: POST /login/oauth/access_token
 * ({access_token, token_type, scope}, or 200 {error: "bad_verification_code", ...} for a wrong or
 * used code, or one of another client), GET /user and GET /user/emails (401 {message: "Bad
 * credentials"} for an unknown token). Point GITHUB_OAUTH_URL and GITHUB_API_URL at `url`.
 *
 * The GitHub App has its own OAuth client (`appClientId`, `appClientSecret`): the `code` of its
 * setup redirect (`appCode`) exchanges, with that client only, for a user-to-server token
 * (`ghu_…`, with `expires_in` and a refresh token), and GET /user/installations answers that token
 * the app's installations the user can reach (`accessibleTo`), paged like GitHub; any other token
 * gets 403, as from GitHub.
 *
 * It is also the GitHub App of code-host installations (GITHUB_APP_ID = `appId`,
 * GITHUB_APP_PRIVATE_KEY = `appPrivateKey`): GET /app, GET /app/installations/{id} and
 * POST /app/installations/{id}/access_tokens take only an RS256 JWT of the app that expires within
 * 10 minutes (401 otherwise), GET /installation/repositories only an installation token, paged
 * with per_page and page and GitHub's Link header. An unknown or removed installation answers 404,
 * as GitHub does. With an installation token, GET /repos/{owner}/{repo}/commits lists an installed
 * repository's commits, newest first (409 for one without commits, as GitHub answers an empty
 * repository), GET /users/{username} finds any user added with `addUser` (404 otherwise), and
 * GET /repos/{owner}/{repo}/collaborators/{username}/permission answers a user's role on an
 * installed repository (`setRole`; none on a private one, read on a public one, 404 for an unknown
 * user). Its answers are checked against GitHub's OpenAPI description
 * (tests/integration/fake-github-fidelity.test.ts).
 *
 * Pull requests of an installation's repositories, for the review engine, are in `pulls`
 * (fake-github-pulls.ts), answered to that installation's token; a user's token may react to
 * their review comments (as people do).
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerify } from "jose";
import { createFakeGitHubPulls, type FakeGitHubPulls } from "./fake-github-pulls.ts";

export interface FakeGitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility?: "public" | "private" | null;
}

export interface FakeGitHubUser {
  id: number;
  login: string;
  name: string | null;
  emails: FakeGitHubEmail[];
}

/** A repository: the fields Argus reads of GitHub's "repository" object; answers add the rest. */
export interface FakeGitHubRepository {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  description: string | null;
  default_branch: string;
  fork: boolean;
  html_url: string;
}

/** A commit: who wrote it and when. `login` null: GitHub could not tie the address to an account. */
export interface FakeGitHubCommit {
  repository: string;
  login: string | null;
  name: string;
  email: string;
  date: string;
  bot?: boolean;
}

export interface FakeGitHubInstallation {
  id: number;
  account: string;
  repositories: FakeGitHubRepository[];
  /** Commits to its repositories (by `full_name`), in any order. */
  commits?: FakeGitHubCommit[];
  suspended?: boolean;
  /** Logins of the users GET /user/installations lists it to (who may manage or use it). */
  accessibleTo?: string[];
}

/** A person's role on a repository, as GitHub names them (`role_name`). */
export type FakeGitHubRole = "admin" | "maintain" | "write" | "triage" | "read";

export const fakeRepository = (owner: string, name: string, id: number): FakeGitHubRepository => ({
  id,
  name,
  full_name: `${owner}/${name}`,
  private: id % 2 === 0,
  description: `The ${name} repository`,
  default_branch: "main",
  fork: false,
  html_url: `https://github.com/${owner}/${name}`,
});

export interface FakeGitHub {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Adds a user; returns an access token of theirs (as the Firebase popup would hand over). */
  addUser(user: FakeGitHubUser): string;
  /** A one-time OAuth code that the code exchange turns into this access token. */
  issueCode(accessToken: string): string;
  /** The GitHub App's own OAuth client, whose codes its setup redirect carries. */
  appClientId: string;
  appClientSecret: string;
  /**
   * A one-time code of the App's OAuth client for the user of `accessToken`, as GitHub's setup
   * redirect carries it; exchanged, it becomes a user-to-server token of theirs.
   */
  appCode(accessToken: string): string;
  /**
   * The `code` of the setup redirect of a new user who can reach the installation (listed in its
   * `accessibleTo`): what the browser of the person who installed it comes back with.
   */
  installerCode(installationId: number): string;
  /** Gives `login` a role on an installed repository (by full name). */
  setRole(fullName: string, login: string, role: FakeGitHubRole): void;
  /** The GitHub App: its id and its PKCS#1 private key, as GitHub hands it out. */
  appId: string;
  appPrivateKey: string;
  /** The app's page, as GET /app answers `html_url`. */
  appHtmlUrl: string;
  /** Installs the app on an account; `removeInstallation` uninstalls it. */
  addInstallation(installation: FakeGitHubInstallation): void;
  removeInstallation(id: number): void;
  /** Pull requests, diffs, file contents, and the reviews and comments posted on them. */
  pulls: FakeGitHubPulls;
  /** While set, every call answers this status (GitHub having a bad day). */
  failWith: number | undefined;
  /** Method and path of every call, in order. */
  calls: string[];
  close(): Promise<void>;
}

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  // GitHub takes form-encoded or JSON parameters.
  if ((req.headers["content-type"] ?? "").includes("application/json")) return JSON.parse(text || "{}");
  return Object.fromEntries(new URLSearchParams(text));
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

/** GitHub's Link header of a paged list: where the next, last, first and previous pages are. */
function pageLinks(url: string, perPage: number, page: number, total: number): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / perPage));
  const at = (n: number) => `<${url}?per_page=${perPage}&page=${n}>`;
  const links = [
    ...(page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : []),
    ...(page > 1 ? [`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`] : []),
  ];
  return links.length ? { link: links.join(", ") } : {};
}

/** When the fake's objects say they were created and last changed. */
const CREATED_AT = "2026-01-15T09:30:00Z";
const UPDATED_AT = "2026-11-01T12:00:00Z";

/** GitHub's "simple-user": an account as other objects name it (owner, installation account). */
function simpleUser(api: string, login: string, id: number, type: "User" | "Organization" | "Bot") {
  const url = `${api}/users/${login}`;
  return {
    login,
    id,
    node_id: `${type === "Organization" ? "O" : "U"}_${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url,
    html_url: `https://github.com/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    user_view_type: "public",
    site_admin: false,
  };
}

/** A repository in the full shape of GitHub's "repository" object, its API links under `api`. */
function repositoryAnswer(api: string, repository: FakeGitHubRepository) {
  const owner = repository.full_name.split("/")[0] ?? repository.full_name;
  const url = `${api}/repos/${repository.full_name}`;
  const web = repository.html_url;
  return {
    ...repository,
    node_id: `R_${repository.id}`,
    owner: simpleUser(api, owner, repository.id * 7, "Organization"),
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    hooks_url: `${url}/hooks`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    clone_url: `${web}.git`,
    git_url: `${web.replace(/^https?:/, "git:")}.git`,
    ssh_url: `git@${new URL(web).host}:${repository.full_name}.git`,
    svn_url: web,
    mirror_url: null,
    homepage: null,
    language: "TypeScript",
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    size: 120,
    has_issues: true,
    has_projects: true,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    archived: false,
    disabled: false,
    visibility: repository.private ? "private" : "public",
    license: null,
    pushed_at: UPDATED_AT,
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
  };
}

/** GitHub's "public-user", as GET /users/{username} answers another account. */
function publicUser(api: string, user: FakeGitHubUser) {
  const primary = user.emails.find((entry) => entry.primary && entry.visibility === "public");
  return {
    ...simpleUser(api, user.login, user.id, "User"),
    name: user.name,
    company: null,
    blog: "",
    location: null,
    email: primary?.email ?? null,
    hireable: null,
    bio: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
  };
}

/** A commit in the shape of GitHub's "commit" object; `authorId` null leaves the author unlinked. */
function commitAnswer(api: string, commit: FakeGitHubCommit, sha: string, authorId: number | null) {
  const url = `${api}/repos/${commit.repository}/commits/${sha}`;
  const gitUser = { name: commit.name, email: commit.email, date: commit.date };
  const author =
    commit.login === null || authorId === null
      ? null
      : simpleUser(api, commit.login, authorId, commit.bot ? "Bot" : "User");
  return {
    url,
    sha,
    node_id: `C_${sha.slice(0, 12)}`,
    html_url: `https://github.com/${commit.repository}/commit/${sha}`,
    comments_url: `${url}/comments`,
    commit: {
      url: `${api}/repos/${commit.repository}/git/commits/${sha}`,
      author: gitUser,
      committer: gitUser,
      message: "Change things",
      comment_count: 0,
      tree: {
        sha: sha.split("").reverse().join(""),
        url: `${api}/repos/${commit.repository}/git/trees/${sha}`,
      },
    },
    author,
    committer: author,
    parents: [],
  };
}

/** Roles from the least to the most. */
const ROLE_ORDER: readonly FakeGitHubRole[] = ["read", "triage", "write", "maintain", "admin"];

const NOT_FOUND = { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" };

/** The JWT of GitHub's app authentication: RS256, the app's key, `iss` = app id, at most 10 minutes. */
async function isAppJwt(authorization: string | undefined, appId: string, publicKey: KeyObject) {
  // The scheme is case-insensitive (RFC 9110); Octokit sends "bearer".
  const match = /^Bearer (\S+)$/i.exec(authorization ?? "");
  if (!match) return false;
  try {
    const { payload } = await jwtVerify(match[1] as string, publicKey, {
      algorithms: ["RS256"],
      issuer: appId,
    });
    return (
      typeof payload.iat === "number" && typeof payload.exp === "number" && payload.exp - payload.iat <= 600
    );
  } catch {
    return false;
  }
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const users = new Map<string, FakeGitHubUser>();
  /** One-time code → the access token it exchanges for and the OAuth client it was issued to. */
  const codes = new Map<string, { accessToken: string; clientId: string }>();
  /** User-to-server tokens of the App (GET /user/installations takes only these). */
  const appUserTokens = new Set<string>();
  /** Roles on repositories: full name → lower-case login → role. */
  const roles = new Map<string, Map<string, FakeGitHubRole>>();
  const installations = new Map<number, FakeGitHubInstallation>();
  /** Installation access token → installation id. */
  const installationTokens = new Map<string, number>();
  const appKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const appId = String(100_000 + Math.floor(Math.random() * 100_000));

  /** GitHub's "installation" object. */
  function installationAnswer(installation: FakeGitHubInstallation) {
    const suspended_at = installation.suspended ? "2026-11-01T00:00:00Z" : null;
    return {
      id: installation.id,
      account: simpleUser(fake.url, installation.account, installation.id * 10, "Organization"),
      repository_selection: "selected",
      access_tokens_url: `${fake.url}/app/installations/${installation.id}/access_tokens`,
      repositories_url: `${fake.url}/installation/repositories`,
      html_url: `https://github.com/organizations/${installation.account}/settings/installations/${installation.id}`,
      app_id: Number(appId),
      app_slug: "argus-test",
      target_id: installation.id * 10,
      target_type: "Organization",
      permissions: { metadata: "read", pull_requests: "write" },
      events: ["pull_request"],
      created_at: CREATED_AT,
      updated_at: UPDATED_AT,
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: installation.suspended ? simpleUser(fake.url, "site-admin", 2, "User") : null,
      suspended_at,
    };
  }

  /**
   * GitHub's "repository-collaborator-permission": `permission` is the classic level (maintain
   * counts as write, triage as read), `role_name` the role itself.
   */
  function collaboratorPermission(account: FakeGitHubUser, repository: FakeGitHubRepository) {
    const role = roles.get(repository.full_name)?.get(account.login.toLowerCase());
    const permission = !role
      ? repository.private
        ? "none"
        : "read"
      : role === "maintain"
        ? "write"
        : role === "triage"
          ? "read"
          : role;
    const at = (level: FakeGitHubRole) =>
      role !== undefined && ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(level);
    return {
      permission,
      role_name: role ?? permission,
      user: {
        ...simpleUser(fake.url, account.login, account.id, "User"),
        permissions: {
          pull: permission !== "none",
          triage: at("triage"),
          push: at("write"),
          maintain: at("maintain"),
          admin: at("admin"),
        },
        role_name: role ?? permission,
      },
    };
  }

  /** The app's REST calls; true when one answered. */
  async function appCall(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const installationPath = /^\/app\/installations\/(\d+)(\/access_tokens)?$/.exec(path);
    if (path === "/app" || installationPath) {
      if (!(await isAppJwt(req.headers.authorization, appId, appKeys.publicKey))) {
        send(res, 401, {
          message: "A JSON web token could not be decoded",
          documentation_url: "https://docs.github.com/rest",
          status: "401",
        });
        return true;
      }
      if (path === "/app" && req.method === "GET") {
        send(res, 200, {
          id: Number(appId),
          slug: "argus-test",
          node_id: `A_${appId}`,
          client_id: fake.appClientId,
          owner: simpleUser(fake.url, "argus-dev", 1, "Organization"),
          name: "Argus Test",
          description: "Argus code review (test app)",
          external_url: "https://argus.example.com",
          html_url: fake.appHtmlUrl,
          created_at: CREATED_AT,
          updated_at: UPDATED_AT,
          permissions: { metadata: "read", pull_requests: "write" },
          events: ["pull_request"],
          installations_count: installations.size,
        });
        return true;
      }
      const installation = installations.get(Number(installationPath?.[1]));
      if (!installation) {
        send(res, 404, NOT_FOUND);
        return true;
      }
      if (req.method === "GET" && !installationPath?.[2]) {
        send(res, 200, installationAnswer(installation));
        return true;
      }
      if (req.method === "POST" && installationPath?.[2]) {
        if (installation.suspended) {
          send(res, 403, { message: "This installation has been suspended", status: "403" });
          return true;
        }
        const installationToken = token("ghs");
        installationTokens.set(installationToken, installation.id);
        send(res, 201, {
          token: installationToken,
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          permissions: { metadata: "read", pull_requests: "write" },
          repository_selection: "selected",
        });
        return true;
      }
      return false;
    }
    const commitsPath = /^\/repos\/([^/]+\/[^/]+)\/commits$/.exec(path);
    const userPath = /^\/users\/([^/]+)$/.exec(path);
    if (req.method === "GET" && (path === "/installation/repositories" || commitsPath || userPath)) {
      const match = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "");
      const installation = installations.get(installationTokens.get(match?.[1] ?? "") ?? -1);
      if (!installation) {
        send(res, 401, {
          message: "Bad credentials",
          documentation_url: "https://docs.github.com/rest",
          status: "401",
        });
        return true;
      }
      const query = new URL(req.url ?? "/", "http://localhost").searchParams;
      const perPage = Math.min(Number(query.get("per_page") ?? 30), 100);
      const page = Number(query.get("page") ?? 1);
      if (userPath) {
        const login = decodeURIComponent(userPath[1] as string).toLowerCase();
        const user = [...users.values()].find((entry) => entry.login.toLowerCase() === login);
        if (user) send(res, 200, publicUser(fake.url, user));
        else send(res, 404, NOT_FOUND);
        return true;
      }
      if (commitsPath) {
        const fullName = decodeURIComponent(commitsPath[1] as string);
        if (!installation.repositories.some((repository) => repository.full_name === fullName)) {
          send(res, 404, NOT_FOUND);
          return true;
        }
        const commits = (installation.commits ?? [])
          .filter((commit) => commit.repository === fullName)
          .sort((a, b) => b.date.localeCompare(a.date));
        if (commits.length === 0) {
          send(res, 409, {
            message: "Git Repository is empty.",
            documentation_url: "https://docs.github.com/rest/commits/commits#list-commits",
            status: "409",
          });
          return true;
        }
        send(
          res,
          200,
          commits.slice((page - 1) * perPage, page * perPage).map((commit, index) => {
            const sha = createHash("sha1").update(`${fullName}:${commit.date}:${index}`).digest("hex");
            const linked = [...users.values()].find((entry) => entry.login === commit.login);
            return commitAnswer(fake.url, commit, sha, linked?.id ?? (commit.login ? 900_000 + index : null));
          }),
          pageLinks(`${fake.url}${path}`, perPage, page, commits.length),
        );
        return true;
      }
      send(
        res,
        200,
        {
          total_count: installation.repositories.length,
          repository_selection: "selected",
          repositories: installation.repositories
            .slice((page - 1) * perPage, page * perPage)
            .map((repository) => repositoryAnswer(fake.url, repository)),
        },
        pageLinks(`${fake.url}${path}`, perPage, page, installation.repositories.length),
      );
      return true;
    }
    return false;
  }

  const pulls = createFakeGitHubPulls(
    () => fake.url,
    send,
    (login, id, type) => simpleUser(fake.url, login, id, type),
  );

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    fake.calls.push(`${req.method} ${path}`);
    if (fake.failWith !== undefined) {
      send(res, fake.failWith, { message: "Server Error" });
      return;
    }

    if (req.method === "POST" && path === "/login/oauth/access_token") {
      const params = await readBody(req);
      const clients: Record<string, string> = {
        [fake.clientId]: fake.clientSecret,
        [fake.appClientId]: fake.appClientSecret,
      };
      if (!params.client_id || clients[params.client_id] !== params.client_secret) {
        send(res, 200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
          error_uri:
            "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#incorrect-client-credentials",
        });
        return;
      }
      const issued = codes.get(params.code ?? "");
      codes.delete(params.code ?? "");
      // A code is good once, and only with the client it was issued to.
      const user = issued?.clientId === params.client_id ? users.get(issued.accessToken) : undefined;
      if (!issued || !user) {
        send(res, 200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
          error_uri:
            "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code",
        });
        return;
      }
      if (params.client_id === fake.appClientId) {
        // A GitHub App's user-to-server token: it expires, with a refresh token, and has no scopes.
        const userToken = token("ghu");
        users.set(userToken, user);
        appUserTokens.add(userToken);
        send(res, 200, {
          access_token: userToken,
          expires_in: 28_800,
          refresh_token: token("ghr"),
          refresh_token_expires_in: 15_897_600,
          token_type: "bearer",
          scope: "",
        });
        return;
      }
      send(res, 200, {
        access_token: issued.accessToken,
        token_type: "bearer",
        scope: "read:user,user:email",
      });
      return;
    }

    if (await appCall(req, res, path)) return;

    if (req.method === "POST" && path === "/graphql") {
      const bearer = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const installation = installations.get(installationTokens.get(bearer) ?? -1);
      if (!installation) {
        send(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/graphql" });
        return;
      }
      await pulls.graphql(
        req,
        res,
        installation.repositories.map((repository) => repository.full_name),
      );
      return;
    }

    const repository = /^\/repos\/([^/]+\/[^/]+)\//.exec(path)?.[1];
    if (repository) {
      const bearer = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const installed = installations
        .get(installationTokens.get(bearer) ?? -1)
        ?.repositories.find((candidate) => candidate.full_name === repository);
      const permissionPath = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(path);
      if (req.method === "GET" && permissionPath && installed) {
        const login = decodeURIComponent(permissionPath[1] as string).toLowerCase();
        const account = [...users.values()].find((entry) => entry.login.toLowerCase() === login);
        if (!account) {
          send(res, 404, NOT_FOUND);
          return;
        }
        send(res, 200, collaboratorPermission(account, installed));
        return;
      }
      // A person (a user's token) reacts to comments on any installed repository.
      const person = installed ? undefined : users.get(bearer);
      const known =
        installed ??
        (person
          ? [...installations.values()]
              .flatMap((installation) => installation.repositories)
              .find((candidate) => candidate.full_name === repository)
          : undefined);
      if (
        known &&
        (await pulls.handle(req, res, path, {
          fullName: repository,
          answer: repositoryAnswer(fake.url, known),
          person: person && { login: person.login, id: person.id },
        }))
      ) {
        return;
      }
      send(res, 404, NOT_FOUND);
      return;
    }

    const match = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "");
    const user = match ? users.get(match[1] as string) : undefined;
    if (req.method === "GET" && path === "/user/installations") {
      if (!user || !appUserTokens.has(match?.[1] ?? "")) {
        send(res, user ? 403 : 401, {
          message: user
            ? "You must authenticate with an access token authorized to a GitHub App in order to list installations"
            : "Bad credentials",
          documentation_url:
            "https://docs.github.com/rest/apps/installations#list-app-installations-accessible-to-the-user-access-token",
          status: user ? "403" : "401",
        });
        return;
      }
      const query = new URL(req.url ?? "/", "http://localhost").searchParams;
      const perPage = Math.min(Number(query.get("per_page") ?? 30), 100);
      const page = Number(query.get("page") ?? 1);
      const login = user.login.toLowerCase();
      const reachable = [...installations.values()].filter((installation) =>
        (installation.accessibleTo ?? []).some((entry) => entry.toLowerCase() === login),
      );
      send(
        res,
        200,
        {
          total_count: reachable.length,
          installations: reachable.slice((page - 1) * perPage, page * perPage).map(installationAnswer),
        },
        pageLinks(`${fake.url}${path}`, perPage, page, reachable.length),
      );
      return;
    }
    if (req.method === "GET" && (path === "/user" || path === "/user/emails")) {
      if (!user) {
        send(res, 401, {
          message: "Bad credentials",
          documentation_url: "https://docs.github.com/rest",
          status: "401",
        });
        return;
      }
      if (path === "/user") {
        // The account's own token sees the private view (private-user).
        send(res, 200, {
          ...publicUser(fake.url, user),
          user_view_type: "private",
          private_gists: 0,
          total_private_repos: 0,
          owned_private_repos: 0,
          disk_usage: 0,
          collaborators: 0,
          two_factor_authentication: true,
        });
        return;
      }
      send(
        res,
        200,
        user.emails.map((entry) => ({ visibility: null, ...entry })),
      );
      return;
    }
    send(res, 404, NOT_FOUND);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  const fake: FakeGitHub = {
    url: `http://127.0.0.1:${port}`,
    clientId: "Iv1.fakeclientid",
    clientSecret: token("secret"),
    failWith: undefined,
    calls: [],
    pulls: pulls.state,
    appId,
    appPrivateKey: appKeys.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    appHtmlUrl: "https://github.com/apps/argus-test",
    addInstallation(installation) {
      installations.set(installation.id, installation);
    },
    removeInstallation(id) {
      installations.delete(id);
      for (const [key, owner] of installationTokens) if (owner === id) installationTokens.delete(key);
    },
    addUser(user) {
      const accessToken = token("gho");
      users.set(accessToken, user);
      return accessToken;
    },
    issueCode(accessToken) {
      const code = randomBytes(10).toString("hex");
      codes.set(code, { accessToken, clientId: fake.clientId });
      return code;
    },
    appClientId: "Iv23.fakeappclientid",
    appClientSecret: token("appsecret"),
    appCode(accessToken) {
      const code = randomBytes(10).toString("hex");
      codes.set(code, { accessToken, clientId: fake.appClientId });
      return code;
    },
    installerCode(installationId) {
      const installation = installations.get(installationId);
      if (!installation) throw new Error(`no installation ${installationId}`);
      const login = `installer-${installationId}-${randomBytes(3).toString("hex")}`;
      installation.accessibleTo = [...(installation.accessibleTo ?? []), login];
      return fake.appCode(fake.addUser({ id: 700_000 + users.size, login, name: null, emails: [] }));
    },
    setRole(fullName, login, role) {
      const repository = roles.get(fullName) ?? new Map<string, FakeGitHubRole>();
      repository.set(login.toLowerCase(), role);
      roles.set(fullName, repository);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}

/** The backend settings of a GitHub App that is this fake, the key on one line as operators set it. */
export function gitHubAppEnv(github: FakeGitHub): Record<string, string> {
  return {
    GITHUB_API_URL: github.url,
    // The App's setup code is exchanged on GitHub's web host.
    GITHUB_OAUTH_URL: github.url,
    GITHUB_APP_ID: github.appId,
    GITHUB_APP_PRIVATE_KEY: github.appPrivateKey.replaceAll("\n", "\\n"),
    GITHUB_APP_CLIENT_ID: github.appClientId,
    GITHUB_APP_CLIENT_SECRET: github.appClientSecret,
  };
}
