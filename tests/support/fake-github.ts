/**
 * A local stand-in for GitHub's OAuth endpoint and the REST calls sign-in makes, on a loopback
 * port, answering in GitHub's documented shapes: POST /login/oauth/access_token
 * ({access_token, token_type, scope}, or 200 {error: "bad_verification_code", ...} for a wrong or
 * used code), GET /user and GET /user/emails (401 {message: "Bad credentials"} for an unknown
 * token). Point GITHUB_OAUTH_URL and GITHUB_API_URL at `url`.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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

export interface FakeGitHub {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Adds a user; returns an access token of theirs (as the Firebase popup would hand over). */
  addUser(user: FakeGitHubUser): string;
  /** A one-time OAuth code that the code exchange turns into this access token. */
  issueCode(accessToken: string): string;
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

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const users = new Map<string, FakeGitHubUser>();
  const codes = new Map<string, string>();

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
    send(res, 404, {
      message: "Not Found",
      documentation_url: "https://docs.github.com/rest",
      status: "404",
    });
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
