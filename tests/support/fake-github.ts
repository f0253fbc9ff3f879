/**
 * A local stand-in for GitHub's OAuth endpoint and the REST calls sign-in makes, on a loopback
 * port, answering in GitHub's documented shapes: POST /login/oauth/access_token
 * ({access_token, token_type, scope}, or 200 {error: "bad_verification_code", ...} for a wrong or
 * used code), GET /user and GET /user/emails (401 {message: "Bad credentials"} for an unknown
 * token). Point GITHUB_OAUTH_URL and GITHUB_API_URL at `url`.
 *
 * It is also the GitHub App of code-host installations (GITHUB_APP_ID = `appId`,
 * GITHUB_APP_PRIVATE_KEY = `appPrivateKey`): GET /app, GET /app/installations/{id} and
 * POST /app/installations/{id}/access_tokens take only an RS256 JWT of the app that expires within
 * 10 minutes (401 otherwise), GET /installation/repositories only an installation token, paged
 * with per_page and page and GitHub's Link header. An unknown or removed installation answers 404, as GitHub does.
 */
import { generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerify } from "jose";

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

/** A repository in the shape of GitHub's "repository" object (the fields Argus reads, and a few more). */
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

export interface FakeGitHubInstallation {
  id: number;
  account: string;
  repositories: FakeGitHubRepository[];
  suspended?: boolean;
}

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
  /** The GitHub App: its id and its PKCS#1 private key, as GitHub hands it out. */
  appId: string;
  appPrivateKey: string;
  /** The app's page, as GET /app answers `html_url`. */
  appHtmlUrl: string;
  /** Installs the app on an account; `removeInstallation` uninstalls it. */
  addInstallation(installation: FakeGitHubInstallation): void;
  removeInstallation(id: number): void;
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
  const codes = new Map<string, string>();
  const installations = new Map<number, FakeGitHubInstallation>();
  /** Installation access token → installation id. */
  const installationTokens = new Map<string, number>();
  const appKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const appId = String(100_000 + Math.floor(Math.random() * 100_000));

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
          name: "Argus Test",
          html_url: fake.appHtmlUrl,
        });
        return true;
      }
      const installation = installations.get(Number(installationPath?.[1]));
      if (!installation) {
        send(res, 404, NOT_FOUND);
        return true;
      }
      const suspended_at = installation.suspended ? "2026-11-01T00:00:00Z" : null;
      if (req.method === "GET" && !installationPath?.[2]) {
        send(res, 200, {
          id: installation.id,
          account: { login: installation.account, id: installation.id * 10, type: "Organization" },
          app_id: Number(appId),
          target_type: "Organization",
          repository_selection: "selected",
          suspended_at,
        });
        return true;
      }
      if (req.method === "POST" && installationPath?.[2]) {
        if (suspended_at) {
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
    if (req.method === "GET" && path === "/installation/repositories") {
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
      send(
        res,
        200,
        {
          total_count: installation.repositories.length,
          repository_selection: "selected",
          repositories: installation.repositories.slice((page - 1) * perPage, page * perPage),
        },
        pageLinks(`${fake.url}${path}`, perPage, page, installation.repositories.length),
      );
      return true;
    }
    return false;
  }

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    fake.calls.push(`${req.method} ${path}`);
    if (fake.failWith !== undefined) {
      send(res, fake.failWith, { message: "Server Error" });
      return;
    }

    if (req.method === "POST" && path === "/login/oauth/access_token") {
      const params = await readBody(req);
      if (params.client_id !== fake.clientId || params.client_secret !== fake.clientSecret) {
        send(res, 200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
          error_uri:
            "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#incorrect-client-credentials",
        });
        return;
      }
      const accessToken = codes.get(params.code ?? "");
      codes.delete(params.code ?? "");
      if (!accessToken) {
        send(res, 200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
          error_uri:
            "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code",
        });
        return;
      }
      send(res, 200, { access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" });
      return;
    }

    if (await appCall(req, res, path)) return;

    const match = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "");
    const user = match ? users.get(match[1] as string) : undefined;
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
        const primary = user.emails.find((entry) => entry.primary && entry.visibility === "public");
        send(res, 200, {
          login: user.login,
          id: user.id,
          node_id: `U_${user.id}`,
          avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
          type: "User",
          name: user.name,
          email: primary?.email ?? null,
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
      codes.set(code, accessToken);
      return code;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
