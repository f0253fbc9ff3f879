/**
 * A real HTTP server that speaks the backend's contract (sign-in answers with a session token, refresh,
 * logout, JWKS) and echoes every /api call, so the gateway is tested against the wire, not mocks.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { INVALID_SESSION_MESSAGE } from "../../backend/auth/require-session.ts";
import { EVENT_STREAM_HEADERS } from "../../backend/routes/reviews.ts";
import {
  type RefreshResponse,
  SESSION_AUDIENCE_DEFAULT,
  SESSION_ISSUER_DEFAULT,
  SESSION_NAMES_HEADER,
  type SessionClaims,
  type SessionNames,
  type SignInResponse,
  sessionNamesHeaderValue,
} from "../../shared/contract/accounts.ts";
import type { ProjectsResponse } from "../../shared/contract/code-hosts.ts";
import type { ErrorBody } from "../../shared/contract/common.ts";
import { API_PATHS, TOKEN_BEARING_AUTH_PATHS } from "../../shared/contract/common.ts";
import { DEFAULT_PAGE_SIZE } from "../../shared/contract/paging.ts";

export interface RecordedCall {
  method: string;
  path: string;
  query: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeBackend {
  url: string;
  calls: RecordedCall[];
  revokedSessions: Set<string>;
  /** What the next sign-in answers with; tests swap it for hostile answers. */
  signInToken: () => Promise<string>;
  refreshRefused: boolean;
  /** Claims the refreshed tokens carry besides the session's (a renamed user, say). */
  refreshClaims: Partial<SessionClaims>;
  /** The names session-status answers instead of the token's (renamed since it was minted). */
  currentNames: Partial<SessionNames>;
  /** While set, refresh calls wait for it to resolve (to catch parallel requests in flight). */
  refreshGate: Promise<void> | undefined;
  /** The key set answers 503, as an unreachable or broken JWKS endpoint would. */
  jwksDown: boolean;
  /** GET /api/projects answers after this delay, so tests can catch a page mid-stream. */
  projectsDelayMs: number;
  /** Requests the fake has received but not yet answered or seen closed. */
  openRequests(): number;
  mint(overrides?: Partial<SessionClaims> & JWTPayload, options?: { withoutExp?: boolean }): Promise<string>;
  close(): Promise<void>;
}

export const TEST_USER = {
  sub: "user-123456789",
  sid: "session-1",
  orgId: "org-1",
  email: "ada@example.com",
  name: "Ada Lovelace",
  role: "org_admin",
  provider: "email",
  orgName: "Analytical Engines",
} as const;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

export async function startFakeBackend(): Promise<FakeBackend> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "ES256", use: "sig" };

  async function mint(
    overrides: Partial<SessionClaims> & JWTPayload = {},
    options: { withoutExp?: boolean } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    const { iat, exp, ...claims } = { iat: now, exp: now + 3600, auth_time: now, ...TEST_USER, ...overrides };
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: "test-key" })
      .setIssuer(typeof claims.iss === "string" ? claims.iss : SESSION_ISSUER_DEFAULT)
      .setAudience(claims.aud ?? SESSION_AUDIENCE_DEFAULT)
      .setSubject(claims.sub)
      .setIssuedAt(iat);
    if (!options.withoutExp) jwt.setExpirationTime(exp);
    return jwt.sign(privateKey);
  }

  let open = 0;
  const fake: Omit<FakeBackend, "url" | "close"> = {
    openRequests: () => open,
    calls: [],
    revokedSessions: new Set(),
    signInToken: () => mint(),
    refreshRefused: false,
    refreshClaims: {},
    currentNames: {},
    refreshGate: undefined,
    jwksDown: false,
    projectsDelayMs: 0,
    mint,
  };

  const server: Server = createServer(async (req, res) => {
    open += 1;
    res.on("close", () => {
      open -= 1;
    });
    const url = new URL(req.url ?? "/", "http://fake");
    const body = await readBody(req);
    fake.calls.push({
      method: req.method ?? "",
      path: url.pathname,
      query: url.search,
      headers: req.headers,
      body,
    });
    const json = (status: number, value: unknown, headers: Record<string, string | string[]> = {}) => {
      // Like the real backend (Express), answers carry their length.
      const body = JSON.stringify(value);
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        ...headers,
      });
      res.end(body);
    };
    const bearer = req.headers.authorization?.replace(/^Bearer /, "");
    const claimsOf = (token: string | undefined) =>
      token
        ? (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as SessionClaims)
        : undefined;
    const sidOf = (token: string | undefined) => claimsOf(token)?.sid ?? "";

    if (url.pathname === API_PATHS.jwks) {
      return fake.jwksDown
        ? json(503, { error: "Unavailable" } satisfies ErrorBody)
        : json(200, { keys: [jwk] });
    }
    // As lenient as Express's default router (any case, a trailing slash), so tests show that the
    // gateway keeps tokens out of the browser without relying on the backend's strictness.
    const lenientPath = url.pathname.toLowerCase().replace(/\/+$/, "");
    if (req.method === "POST" && TOKEN_BEARING_AUTH_PATHS.some((path) => path.test(lenientPath))) {
      return json(
        200,
        {
          token: await fake.signInToken(),
          user: { id: TEST_USER.sub, email: TEST_USER.email, name: TEST_USER.name, role: TEST_USER.role },
          org: { org_id: TEST_USER.orgId, name: TEST_USER.orgName },
        } satisfies SignInResponse,
        { "set-cookie": "backend_cookie=leak; Path=/" },
      );
    }
    const namesNow = (): SessionNames => {
      const claims = claimsOf(bearer);
      return { name: claims?.name ?? "", orgName: claims?.orgName ?? "", ...fake.currentNames };
    };
    if (req.method === "GET" && url.pathname === API_PATHS.sessionStatus) {
      if (fake.revokedSessions.has(sidOf(bearer)))
        return json(401, { error: "Invalid or expired session" } satisfies ErrorBody);
      return json(200, namesNow());
    }
    if (req.method === "POST" && url.pathname === API_PATHS.refresh) {
      await fake.refreshGate;
      if (fake.refreshRefused || fake.revokedSessions.has(sidOf(bearer)))
        return json(401, { error: "Invalid session" } satisfies ErrorBody);
      return json(200, {
        token: await mint({ ...fake.refreshClaims, sid: sidOf(bearer) }),
      } satisfies RefreshResponse);
    }
    if (req.method === "POST" && url.pathname === API_PATHS.logout) {
      fake.revokedSessions.add(sidOf(bearer));
      res.writeHead(204).end();
      return;
    }
    // Like the real backend (backend/auth/require-session.ts), an /api call of an ended session is refused.
    if (url.pathname.startsWith("/api/") && bearer && fake.revokedSessions.has(sidOf(bearer)))
      return json(401, { error: INVALID_SESSION_MESSAGE } satisfies ErrorBody);
    // And every other answer to an /api call with a session carries the session's names now.
    if (url.pathname.startsWith("/api/") && bearer)
      res.setHeader(SESSION_NAMES_HEADER, sessionNamesHeaderValue(namesNow()));
    // An answer that should never carry a token, but does.
    if (url.pathname === "/auth/leaky") return json(200, { ok: true, token: await mint() });
    if (url.pathname.startsWith("/api/slow")) {
      const delay = Number(url.searchParams.get("ms") ?? "1000");
      const timer = setTimeout(() => json(200, { slow: true }), delay);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    // The review events stream as the backend sends it: one `run` event, then the stream stays open.
    if (url.pathname === API_PATHS.reviewEvents && req.method === "GET") {
      res.writeHead(200, EVENT_STREAM_HEADERS);
      res.write(": connected\n\n");
      const timer = setTimeout(
        () => res.write(`event: run\ndata: ${JSON.stringify({ id: "run-1" })}\n\n`),
        50,
      );
      res.on("close", () => clearTimeout(timer));
      return;
    }
    if (url.pathname === "/api/projects" && req.method === "GET") {
      const timer = setTimeout(
        () =>
          json(200, {
            success: true,
            data: { projects: [] },
            page: { total: 0, page: 1, pageSize: DEFAULT_PAGE_SIZE },
          } satisfies ProjectsResponse),
        fake.projectsDelayMs,
      );
      res.on("close", () => clearTimeout(timer));
      return;
    }
    if (url.pathname === "/api/set-cookie")
      return json(200, { ok: true }, { "set-cookie": "upstream=1; Path=/" });
    if (["/api/", "/auth/", "/webhooks/"].some((prefix) => url.pathname.startsWith(prefix))) {
      return json(200, { method: req.method, path: url.pathname, query: url.search, body });
    }
    json(404, { error: "Not found" } satisfies ErrorBody);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
