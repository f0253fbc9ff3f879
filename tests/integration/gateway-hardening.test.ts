import { spawnSync } from "node:child_process";
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";
import type { FakeBackend } from "../support/fake-backend.ts";
import { apiCallsOf, fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, listenForTest, testEnv } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
let token: string;
beforeAll(async () => {
  backend = fakeBackend();
  token = await backend.mint();
});
const apiCalls = () => apiCallsOf(backend);

describe("cross-site request forgery", () => {
  it.each(["post", "put", "patch", "delete"] as const)(
    "refuses a cross-origin %s before the backend",
    async (method) => {
      const { app } = createTestGateway(backend.url);
      const response = await request(app)
        [method]("/api/org/update")
        .set("Cookie", cookieHeader(token))
        .set("Origin", "https://evil.example")
        .send({ updateData: { name: "pwned" } });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe("CSRF");
      expect(apiCalls()).toHaveLength(0);
    },
  );

  it("refuses Sec-Fetch-Site: cross-site even without an Origin, and on gateway routes", async () => {
    const { app } = createTestGateway(backend.url);
    const api = await request(app)
      .post("/api/org/update")
      .set("Cookie", cookieHeader(token))
      .set("Sec-Fetch-Site", "cross-site")
      .send({});
    expect(api.status).toBe(403);
    const logout = await request(app)
      .post("/auth/logout")
      .set("Cookie", cookieHeader(token))
      .set("Origin", "null");
    expect(logout.status).toBe(403);
    expect(apiCalls()).toHaveLength(0);
  });

  it("lets same-origin writes and reads from anywhere through", async () => {
    const { app } = createTestGateway(backend.url);
    const write = await request(app)
      .post("/api/org/update")
      .set("Host", "argus.example")
      .set("Cookie", cookieHeader(token))
      .set("Origin", "http://argus.example")
      .set("Sec-Fetch-Site", "same-origin")
      .send({ updateData: { name: "Ok" } });
    expect(write.status).toBe(200);
    const read = await request(app)
      .get("/api/projects")
      .set("Cookie", cookieHeader(token))
      .set("Sec-Fetch-Site", "cross-site");
    expect(read.status).toBe(200);
  });
});

describe("rate limit on /auth", () => {
  it("answers 429 with standard headers past the limit, per client address", async () => {
    const { app } = createTestGateway(backend.url, { AUTH_RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "1" });
    const attempt = (ip: string) =>
      request(app).post("/auth/forgot-password").set("X-Forwarded-For", ip).send({ email: "a@b.co" });
    for (let i = 0; i < 3; i++) expect((await attempt("203.0.113.1")).status).toBe(200);
    const limited = await attempt("203.0.113.1");
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(limited.headers.ratelimit).toMatch(/r=0/);
    expect(limited.headers["ratelimit-policy"]).toContain("q=3");
    expect(limited.headers["retry-after"]).toBeDefined();
    // Another address has its own budget.
    expect((await attempt("203.0.113.2")).status).toBe(200);
    expect(apiCalls().filter((call) => call.path === "/auth/forgot-password")).toHaveLength(4);
  });
});

describe("security headers", () => {
  it("sends pages and its own answers a nonce CSP without unsafe-inline scripts, and the hardening headers", async () => {
    const { app } = createTestGateway(backend.url);
    const first = await request(app).get("/healthz");
    const second = await request(app).get("/healthz");
    const csp = String(first.headers["content-security-policy"]);
    const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src "));
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(second.headers["content-security-policy"]).not.toBe(csp);
    expect(first.headers["x-content-type-options"]).toBe("nosniff");
    expect(first.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
    expect(first.headers["x-powered-by"]).toBeUndefined();
    expect(first.headers["strict-transport-security"]).toBeUndefined();
  });

  it("gives what it passes on from the backend a fixed policy under which nothing loads, runs or frames it", async () => {
    const { app } = createTestGateway(backend.url);
    // The backend's answers, and the gateway's own answers on the backend's paths.
    for (const path of ["/api/projects", "/auth/session", "/webhooks/github"]) {
      const first = await request(app).get(path).set("Cookie", cookieHeader(token));
      const second = await request(app).get(path).set("Cookie", cookieHeader(token));
      expect(first.headers["content-security-policy"], path).toBe(
        "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'",
      );
      expect(second.headers["content-security-policy"], path).toBe(first.headers["content-security-policy"]);
      expect(first.headers["x-content-type-options"], path).toBe("nosniff");
      expect(first.headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(first.headers["cross-origin-opener-policy"], path).toBe("same-origin-allow-popups");
    }
  });

  it("adds HSTS in production", async () => {
    const { app } = createTestGateway(backend.url, {
      NODE_ENV: "production",
      PUBLIC_ORIGIN: "https://argus.example.com",
      FIREBASE_AUTH_EMULATOR_HOST: "",
      FIREBASE_API_KEY: "public-web-key",
    });
    const response = await request(app).get("/healthz");
    expect(response.headers["strict-transport-security"]).toContain("max-age=63072000");
  });
});

describe("health and readiness", () => {
  it("is live and ready, then not ready once shutting down", async () => {
    const { app, readiness } = createTestGateway(backend.url);
    expect((await request(app).get("/healthz")).body).toEqual({ status: "ok" });
    expect((await request(app).get("/readyz")).status).toBe(200);
    readiness.shuttingDown = true;
    const draining = await request(app).get("/readyz");
    expect(draining.status).toBe(503);
    expect((await request(app).get("/healthz")).status).toBe(200);
  });
});

describe("logs", () => {
  it("write one line per request with id, method, path, status and duration, and no secrets", async () => {
    const { app, logs } = createTestGateway(backend.url);
    const password = "Sup3r-Secret-Passw0rd!";
    await request(app)
      .post("/api/user/update?oobCode=one-time-code")
      .set("Cookie", `${cookieHeader(token)}; theme=dark`)
      .set("Authorization", "Bearer client-secret-bearer")
      .send({ password, updateData: { name: "Ada" } });
    const signIn = await request(app)
      .post("/auth/login")
      .send({ email: "ada@example.com", password, idToken: "id-token-value" });
    const text = logs.text();
    for (const secret of [
      token,
      password,
      "client-secret-bearer",
      "one-time-code",
      "id-token-value",
      "auth_token=",
    ]) {
      expect(text).not.toContain(secret);
    }
    const issuedCookie = String(signIn.headers["set-cookie"]);
    expect(text).not.toContain(issuedCookie.split(";")[0]?.split("=")[1]);
    const line = logs.lines
      .map((raw) => JSON.parse(raw))
      .find((entry) => entry.req?.path === "/api/user/update");
    expect(line).toMatchObject({
      req: { method: "POST", path: "/api/user/update" },
      res: { statusCode: 200 },
    });
    expect(line.req.id).toMatch(/^[\w-]{8,}$/);
    expect(typeof line.responseTime).toBe("number");
  });
});

describe("configuration", () => {
  it("refuses production with the Firebase emulator configured", () => {
    expect(() => loadConfig(testEnv(backend.url, { NODE_ENV: "production", FIREBASE_API_KEY: "k" }))).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST: must not be set in production/,
    );
  });

  it.each(["FIREBASE_EMULATOR_HUB", "FIRESTORE_EMULATOR_HOST"])("refuses production with %s set", (name) => {
    const env = testEnv(backend.url, {
      NODE_ENV: "production",
      FIREBASE_AUTH_EMULATOR_HOST: "",
      FIREBASE_API_KEY: "k",
      [name]: "127.0.0.1:4400",
    });
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: must not be set in production`));
  });

  it("refuses a configured but empty session secret", () => {
    expect(() => loadConfig(testEnv(backend.url, { SESSION_SECRET: "" }))).toThrow(
      /SESSION_SECRET: must be at least 32 bytes/,
    );
  });

  it("stops the process with the message instead of starting", () => {
    const result = spawnSync(process.execPath, ["server/index.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
        PORT: "0",
      },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("FIREBASE_AUTH_EMULATOR_HOST: must not be set in production");
  });

  it("refuses a session secret under 32 bytes", () => {
    expect(() => loadConfig(testEnv(backend.url, { SESSION_SECRET: "too-short" }))).toThrow(
      /SESSION_SECRET: must be at least 32 bytes/,
    );
  });

  it("names every bad variable at once", () => {
    try {
      loadConfig(testEnv("not a url", { PORT: "abc" }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/BACKEND_URL/);
      expect((error as Error).message).toMatch(/PORT/);
    }
  });

  it("requires a Firebase API key without the emulator", () => {
    expect(() => loadConfig(testEnv(backend.url, { FIREBASE_AUTH_EMULATOR_HOST: "" }))).toThrow(
      /FIREBASE_API_KEY/,
    );
  });
});

describe("graceful shutdown", () => {
  it("lets in-flight proxied requests finish, turns readiness off and refuses new connections", async () => {
    const gateway = createTestGateway(backend.url);
    const running = await listenForTest(gateway, 5000);
    const inFlight = request(running.url).get("/api/slow?ms=400").set("Cookie", cookieHeader(token));
    const pending = inFlight.then((response) => response);
    await expect.poll(() => backend.openRequests()).toBe(1);
    const closed = running.shutdown();
    expect(gateway.readiness.shuttingDown).toBe(true);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ slow: true });
    await closed;
    await expect(request(running.url).get("/healthz")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("cuts connections still open after the timeout", async () => {
    const gateway = createTestGateway(backend.url);
    const running = await listenForTest(gateway, 200);
    const stuck = request(running.url)
      .get("/api/slow?ms=10000")
      .set("Cookie", cookieHeader(token))
      .then(
        () => "answered",
        () => "cut",
      );
    await expect.poll(() => backend.openRequests()).toBe(1);
    const started = Date.now();
    await running.shutdown();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stuck).toBe("cut");
    expect(running.server.listening).toBe(false);
  });
});
