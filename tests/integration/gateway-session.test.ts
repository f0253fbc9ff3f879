import { generateKeyPair, SignJWT } from "jose";
import request from "supertest";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../../shared/contract/accounts.ts";
import { type FakeBackend, TEST_USER } from "../support/fake-backend.ts";
import { fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, sessionCookieOf } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
beforeAll(async () => {
  backend = fakeBackend();
});

const now = () => Math.floor(Date.now() / 1000);
const signInBody = { email: TEST_USER.email, firebase_uid: "uid", idToken: "id-token" };

describe("sign-in answers become the session cookie", () => {
  it.each(["/auth/login", "/auth/login/github", "/auth/signup", "/auth/github-signup"])(
    "%s sets an HttpOnly strict cookie and removes the token from the body",
    async (path) => {
      const { app } = createTestGateway(backend.url);
      const response = await request(app).post(path).send(signInBody);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        user: { id: TEST_USER.sub, email: TEST_USER.email, name: TEST_USER.name, role: TEST_USER.role },
        org: { org_id: TEST_USER.orgId, name: TEST_USER.orgName },
      });
      expect(JSON.stringify(response.body)).not.toContain("token");
      const cookie = sessionCookieOf(response.headers);
      expect(cookie).toMatch(/^auth_token=ey/);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      expect(cookie).toContain("Path=/");
      expect(cookie).toContain("Max-Age=604800");
      expect(cookie).not.toContain("Secure");
      expect(response.headers["cache-control"]).toBe("no-store");
      // Only the gateway sets cookies: the backend's own Set-Cookie never reaches the browser.
      expect(String(response.headers["set-cookie"])).not.toContain("backend_cookie");
    },
  );

  it("marks the cookie Secure behind a trusted https proxy, and ignores a spoofed proto otherwise", async () => {
    const trusted = createTestGateway(backend.url, { TRUST_PROXY: "1" });
    const secure = await request(trusted.app)
      .post("/auth/login")
      .set("X-Forwarded-Proto", "https")
      .send(signInBody);
    expect(sessionCookieOf(secure.headers)).toContain("Secure");

    const direct = createTestGateway(backend.url, { TRUST_PROXY: "0" });
    const spoofed = await request(direct.app)
      .post("/auth/login")
      .set("X-Forwarded-Proto", "https")
      .send(signInBody);
    expect(sessionCookieOf(spoofed.headers)).not.toContain("Secure");
  });

  it.each([
    "/auth/LOGIN",
    "/auth/Login",
    "/auth/login/",
    "/auth/login//",
    "/auth/LOGIN/",
    "/auth/Login/GitHub",
    "/auth/login/github/",
    "/auth/SIGNUP",
    "/auth/Github-Signup/",
    "/auth/%6Cogin",
    "/auth/leaky",
  ])("never lets a token reach the browser through %s", async (path) => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).post(path).send(signInBody);
    expect(response.status).toBeLessThan(500);
    expect(response.text).not.toMatch(/"token"|eyJ/);
    // A cookie, if any, is a verified session token; it is never in the body.
    const cookie = sessionCookieOf(response.headers);
    if (cookie) expect(cookie).toMatch(/^auth_token=ey.*HttpOnly/);
  });

  it("marks the cookie Secure when the public origin is https, even without a trusted proxy", async () => {
    const { app } = createTestGateway(backend.url, {
      NODE_ENV: "production",
      FIREBASE_AUTH_EMULATOR_HOST: "",
      FIREBASE_API_KEY: "key",
      PUBLIC_ORIGIN: "https://argus.example",
      TRUST_PROXY: "0",
    });
    const response = await request(app)
      .post("/auth/login")
      .set("Origin", "https://argus.example")
      .send(signInBody);
    expect(response.status).toBe(200);
    expect(sessionCookieOf(response.headers)).toContain("Secure");
  });

  it("refuses a sign-in answer whose token does not verify", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    backend.signInToken = () =>
      new SignJWT({ ...TEST_USER, auth_time: now() })
        .setProtectedHeader({ alg: "ES256", kid: "test-key" })
        .setIssuer(SESSION_ISSUER_DEFAULT)
        .setAudience(SESSION_AUDIENCE_DEFAULT)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(privateKey);
    const { app } = createTestGateway(backend.url);
    const response = await request(app).post("/auth/login").send(signInBody);
    expect(response.status).toBe(502);
    expect(response.body.code).toBe("UPSTREAM_INVALID_SESSION");
    expect(sessionCookieOf(response.headers)).toBeUndefined();
  });
});

describe("tokens that do not count as a session", () => {
  const unsigned = (claims: object) =>
    `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;

  const hostile: Array<[string, () => Promise<string>]> = [
    ["alg none", async () => unsigned({ ...TEST_USER, iat: now(), exp: now() + 3600, auth_time: now() })],
    [
      "a wrong key",
      async () => {
        const { privateKey } = await generateKeyPair("ES256");
        return new SignJWT({ ...TEST_USER, auth_time: now() })
          .setProtectedHeader({ alg: "ES256", kid: "test-key" })
          .setIssuer(SESSION_ISSUER_DEFAULT)
          .setAudience(SESSION_AUDIENCE_DEFAULT)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(privateKey);
      },
    ],
    ["a wrong issuer", () => backend.mint({ iss: "someone-else" })],
    ["a wrong audience", () => backend.mint({ aud: "another-app" })],
    ["no exp", () => backend.mint({}, { withoutExp: true })],
    ["an expired token", () => backend.mint({ iat: now() - 7200, exp: now() - 3600 })],
    ["past the 30-day absolute lifetime", () => backend.mint({ auth_time: now() - 31 * 24 * 3600 })],
    ["a malformed cookie", async () => "not-a-jwt"],
    ["a token missing claims", () => backend.mint({ orgId: undefined })],
  ];

  it.each(hostile)("%s: no session, cookie cleared, never an error page", async (_label, makeToken) => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .get("/auth/session")
      .set("Cookie", cookieHeader(await makeToken()));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user: null });
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;.*Expires=Thu, 01 Jan 1970/);

    const api = await request(app)
      .get("/api/projects")
      .set("Cookie", cookieHeader(await makeToken()));
    expect(api.status).toBe(401);
    expect(backend.calls.filter((call) => call.path === "/api/projects")).toHaveLength(0);
  });
});

describe("the session endpoint", () => {
  it("tells who is signed in without exposing the token", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint();
    const response = await request(app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(response.body).toEqual({
      user: {
        id: TEST_USER.sub,
        email: TEST_USER.email,
        name: TEST_USER.name,
        role: TEST_USER.role,
        provider: TEST_USER.provider,
        orgName: TEST_USER.orgName,
        orgId: TEST_USER.orgId,
      },
    });
    expect(response.text).not.toContain(token);
    expect(response.headers["cache-control"]).toBe("no-store");
  });
});

describe("the names a signed-in browser shows", () => {
  const RENAMED = { name: "Ada King", orgName: "Difference Engines" };
  const namesOf = async (app: Parameters<typeof request>[0], token: string) => {
    const { user } = (await request(app).get("/auth/session").set("Cookie", cookieHeader(token))).body;
    return { name: user.name, orgName: user.orgName };
  };

  it("are the backend's now: a rename in one browser shows in another at its next request", async () => {
    const { app } = createTestGateway(backend.url);
    const otherBrowser = await backend.mint({ sid: "other-browser" });
    expect(await namesOf(app, otherBrowser)).toEqual({ name: TEST_USER.name, orgName: TEST_USER.orgName });

    // The first browser renames the user and the organisation, then renews its own session.
    backend.currentNames = RENAMED;
    backend.refreshClaims = RENAMED;
    const renaming = await backend.mint({ sid: "renaming-browser" });
    expect((await request(app).post("/auth/session").set("Cookie", cookieHeader(renaming))).status).toBe(200);

    // The other browser's token still carries the old names; what it is shown does not.
    expect(await namesOf(app, otherBrowser)).toEqual(RENAMED);
  });

  it("come with the session check, so seeing them costs no call of its own (kept as long as it is)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const elsewhere = createTestGateway(backend.url, { SESSION_STATUS_CACHE_SECONDS: "30" });
      const token = await backend.mint({ sid: "renamed-elsewhere" });
      for (let i = 0; i < 3; i++) await namesOf(elsewhere.app, token);
      const checks = () => backend.calls.filter((call) => call.path === "/auth/session-status");
      expect(checks()).toHaveLength(1);
      // Renamed through another gateway instance: this one sees it at its next check.
      backend.currentNames = RENAMED;
      vi.setSystemTime(Date.now() + 31_000);
      expect(await namesOf(elsewhere.app, token)).toEqual(RENAMED);
      expect(checks()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("renewing the session (POST /auth/session)", () => {
  const claimsOf = (cookie: string | undefined) =>
    JSON.parse(Buffer.from(cookie?.match(/^auth_token=[^.]+\.([^.]+)\./)?.[1] ?? "", "base64url").toString());

  it("exchanges the token at the backend now and answers the renewed user, with the new names in the cookie", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint();
    backend.refreshClaims = { name: "Ada King", orgName: "Difference Engines" };
    const response = await request(app).post("/auth/session").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      id: TEST_USER.sub,
      name: "Ada King",
      orgName: "Difference Engines",
    });
    expect(response.headers["cache-control"]).toBe("no-store");
    const cookie = sessionCookieOf(response.headers);
    expect(cookie).toMatch(/^auth_token=ey.*HttpOnly/);
    expect(cookie).not.toContain(token);
    expect(claimsOf(cookie)).toMatchObject({
      sid: TEST_USER.sid,
      name: "Ada King",
      orgName: "Difference Engines",
    });
    expect(response.text).not.toMatch(/eyJ/);
    const refresh = backend.calls.filter((call) => call.path === "/auth/refresh");
    expect(refresh).toHaveLength(1);
    expect(refresh[0]?.headers.authorization).toBe(`Bearer ${token}`);

    // The renewed cookie is the session from now on.
    const after = await request(app)
      .get("/auth/session")
      .set("Cookie", cookie?.split(";")[0] ?? "");
    expect(after.body.user.name).toBe("Ada King");
  });

  it("answers 401 without a session, without calling the backend", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).post("/auth/session");
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: "No authentication token found" });
    expect(backend.calls.some((call) => call.path === "/auth/refresh")).toBe(false);
  });

  it("ends the session when the backend refuses the refresh", async () => {
    backend.refreshRefused = true;
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .post("/auth/session")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.status).toBe(401);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
  });

  it("keeps the still-valid cookie and answers 502 when the backend cannot be reached", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}/.well-known/jwks.json`,
    });
    const response = await request(app)
      .post("/auth/session")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.status).toBe(502);
    expect(response.body.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(sessionCookieOf(response.headers)).toBeUndefined();
  });

  it("refuses a cross-site renewal", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .post("/auth/session")
      .set("Sec-Fetch-Site", "cross-site")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.status).toBe(403);
    expect(backend.calls.some((call) => call.path === "/auth/refresh")).toBe(false);
  });
});

describe("sliding refresh", () => {
  it("exchanges a token older than 55 minutes for a new one, exactly once for parallel requests", async () => {
    const { app } = createTestGateway(backend.url);
    const old = await backend.mint({ iat: now() - 56 * 60, exp: now() + 3600 });
    // Hold the refresh until all three requests have reached the gateway, so they overlap for sure.
    let release = () => {};
    backend.refreshGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pending = [1, 2, 3].map(() =>
      request(app).get("/auth/session").set("Cookie", cookieHeader(old)).then(),
    );
    await vi.waitFor(() =>
      expect(backend.calls.filter((call) => call.path === "/auth/refresh")).toHaveLength(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const responses = await Promise.all(pending);
    for (const response of responses) {
      expect(response.body.user?.id).toBe(TEST_USER.sub);
      const cookie = sessionCookieOf(response.headers);
      expect(cookie).toMatch(/^auth_token=ey/);
      expect(cookie).not.toContain(old);
    }
    expect(backend.calls.filter((call) => call.path === "/auth/refresh")).toHaveLength(1);
    expect(backend.calls.find((call) => call.path === "/auth/refresh")?.headers.authorization).toBe(
      `Bearer ${old}`,
    );
  });

  it("does not refresh a young token", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .get("/auth/session")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.body.user).not.toBeNull();
    expect(sessionCookieOf(response.headers)).toBeUndefined();
    expect(backend.calls.some((call) => call.path === "/auth/refresh")).toBe(false);
  });

  it("logs out when the backend refuses the refresh", async () => {
    backend.refreshRefused = true;
    const { app } = createTestGateway(backend.url);
    const old = await backend.mint({ iat: now() - 56 * 60 });
    const response = await request(app).get("/auth/session").set("Cookie", cookieHeader(old));
    expect(response.body).toEqual({ user: null });
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
  });

  it("keeps a still-valid session when the backend cannot be reached for the refresh", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}/.well-known/jwks.json`,
    });
    const old = await backend.mint({ iat: now() - 56 * 60 });
    const response = await request(app).get("/auth/session").set("Cookie", cookieHeader(old));
    expect(response.body.user?.id).toBe(TEST_USER.sub);
  });
});

describe("logout", () => {
  it("clears the cookie and asks the backend to revoke the session", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "to-revoke" });
    const response = await request(app).post("/auth/logout").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(204);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
    expect(response.headers["cache-control"]).toBe("no-store");
    const revoke = backend.calls.find((call) => call.path === "/auth/logout");
    expect(revoke?.headers.authorization).toBe(`Bearer ${token}`);
    expect(backend.revokedSessions.has("to-revoke")).toBe(true);
  });

  it("clears the cookie even when the backend is unreachable", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}/.well-known/jwks.json`,
    });
    const response = await request(app)
      .post("/auth/logout")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.status).toBe(204);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
  });
});

describe("shared-secret mode", () => {
  it("verifies HS256 tokens signed with the configured secret and refuses others", async () => {
    const secret = "a-shared-secret-that-is-long-enough-123";
    const { app } = createTestGateway(backend.url, { SESSION_SECRET: secret });
    const sign = (key: string) =>
      new SignJWT({ ...TEST_USER, auth_time: now() })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(SESSION_ISSUER_DEFAULT)
        .setAudience(SESSION_AUDIENCE_DEFAULT)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode(key));
    const good = await request(app)
      .get("/auth/session")
      .set("Cookie", cookieHeader(await sign(secret)));
    expect(good.body.user?.id).toBe(TEST_USER.sub);
    const bad = await request(app)
      .get("/auth/session")
      .set("Cookie", cookieHeader(await sign("another-secret-that-is-long-enough-456")));
    expect(bad.body.user).toBeNull();
    // An ES256 token from the JWKS does not count in secret mode: algorithms are allow-listed.
    const es = await request(app)
      .get("/auth/session")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(es.body.user).toBeNull();
  });
});
