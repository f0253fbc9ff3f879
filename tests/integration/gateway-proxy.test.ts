import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeBackend } from "../support/fake-backend.ts";
import { apiCallsOf, fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, listenForTest } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
let token: string;
beforeAll(async () => {
  backend = fakeBackend();
  token = await backend.mint();
});

const upstreamCall = (path: string) => backend.calls.find((call) => call.path === path);
const apiCalls = () => apiCallsOf(backend);

describe("forwarding to the backend", () => {
  it("keeps method, path and query, and swaps browser credentials for the bearer token", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .get("/api/projects?integrationType=git&integrationName=github")
      .set("Cookie", `${cookieHeader(token)}; other=1`)
      .set("Authorization", "Bearer client-supplied")
      .set("X-Forwarded-For", "6.6.6.6")
      .set("X-Forwarded-Host", "evil.example");
    expect(response.status).toBe(200);
    const call = upstreamCall("/api/projects");
    expect(call?.method).toBe("GET");
    expect(call?.query).toBe("?integrationType=git&integrationName=github");
    expect(call?.headers.authorization).toBe(`Bearer ${token}`);
    expect(call?.headers.cookie).toBeUndefined();
    expect(call?.headers["x-forwarded-for"]).not.toContain("6.6.6.6");
    expect(call?.headers["x-forwarded-host"]).not.toBe("evil.example");
    expect(call?.headers["x-forwarded-proto"]).toBe("http");
    expect(call?.headers["x-request-id"]).toBe(response.headers["x-request-id"]);
    expect(call?.headers["x-request-id"]).toMatch(/^[\w-]{8,}$/);
  });

  it.each(["post", "put", "patch", "delete"] as const)(
    "passes a JSON %s body through intact",
    async (method) => {
      const { app } = createTestGateway(backend.url);
      const body = { value: { auto_review: true, nested: ["a", 1, null] }, repositoryId: "r-1", text: "é ✓" };
      const response = await request(app)
        [method]("/api/settings/review?integrationKey=k")
        .set("Cookie", cookieHeader(token))
        .send(body);
      expect(response.status).toBe(200);
      const call = upstreamCall("/api/settings/review");
      expect(call?.method).toBe(method.toUpperCase());
      expect(call?.query).toBe("?integrationKey=k");
      expect(JSON.parse(call?.body ?? "")).toEqual(body);
      expect(call?.headers["content-type"]).toContain("application/json");
    },
  );

  it("does not send a bearer token on /auth calls and drops the client's Authorization", async () => {
    const { app } = createTestGateway(backend.url);
    await request(app)
      .post("/auth/forgot-password")
      .set("Cookie", cookieHeader(token))
      .set("Authorization", "Bearer client-supplied")
      .send({ email: "a@b.co" });
    const call = upstreamCall("/auth/forgot-password");
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.headers.cookie).toBeUndefined();
    expect(JSON.parse(call?.body ?? "")).toEqual({ email: "a@b.co" });
  });

  it("strips Set-Cookie coming back from the backend", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/api/set-cookie").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(200);
    expect(response.headers["set-cookie"]).toBeUndefined();
  });
});

describe("calls without a session", () => {
  it("answers 401 for /api without touching the backend", async () => {
    const { app } = createTestGateway(backend.url);
    for (const path of ["/api/projects", "/api/subscription", "/api/seats/assign"]) {
      const response = await request(app).get(path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: "No authentication token found" });
    }
    expect(apiCalls()).toHaveLength(0);
  });

  it("lets the one public /api call through", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/api/subscription/stripe/validate-session/cs_test_123");
    expect(response.status).toBe(200);
    expect(
      upstreamCall("/api/subscription/stripe/validate-session/cs_test_123")?.headers.authorization,
    ).toBeUndefined();
  });
});

describe("backend failures", () => {
  it("answers 502 in the documented shape when the backend refuses connections, and keeps serving", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}/.well-known/jwks.json`,
    });
    const response = await request(app).get("/api/projects").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      error: "Bad gateway",
      code: "UPSTREAM_UNAVAILABLE",
      message: "Backend service unavailable. Please try again.",
    });
    expect(response.text).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    expect((await request(app).get("/healthz")).status).toBe(200);
  });

  it("answers 504 when the backend is slower than the timeout", async () => {
    const { app } = createTestGateway(backend.url, { PROXY_TIMEOUT_MS: "200" });
    const started = Date.now();
    const response = await request(app).get("/api/slow?ms=3000").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(504);
    expect(response.body).toEqual({
      error: "Gateway timeout",
      code: "UPSTREAM_TIMEOUT",
      message: "Backend service unavailable. Please try again.",
    });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("cancels the upstream request when the browser aborts", async () => {
    const running = await listenForTest(createTestGateway(backend.url));
    const { port } = running.server.address() as AddressInfo;
    const client = http.get({
      port,
      host: "127.0.0.1",
      path: "/api/slow?ms=5000",
      headers: { cookie: cookieHeader(token) },
    });
    client.on("error", () => {});
    await expect.poll(() => backend.openRequests()).toBe(1);
    client.destroy();
    await expect.poll(() => backend.openRequests(), { timeout: 2000 }).toBe(0);
    await running.shutdown();
  });
});

describe("request body limit", () => {
  it("answers 413 before the backend sees an oversized body", async () => {
    const { app } = createTestGateway(backend.url, { BODY_LIMIT_BYTES: "1024" });
    const response = await request(app)
      .post("/api/contributors/add")
      .set("Cookie", cookieHeader(token))
      .send({ platform_id: "x".repeat(2000), platform_type: "github" });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(apiCalls()).toHaveLength(0);
  });

  it("also for a chunked body without Content-Length", async () => {
    const running = await listenForTest(createTestGateway(backend.url, { BODY_LIMIT_BYTES: "1024" }));
    const { port } = running.server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: "127.0.0.1",
          path: "/api/contributors/add",
          method: "POST",
          headers: {
            cookie: cookieHeader(token),
            "content-type": "application/json",
            "transfer-encoding": "chunked",
          },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on("error", reject);
      for (let i = 0; i < 4; i++) req.write("x".repeat(512));
      req.end();
    });
    await running.shutdown();
    expect(status).toBe(413);
    expect(apiCalls()).toHaveLength(0);
  });

  it("lets a body within the limit through", async () => {
    const { app } = createTestGateway(backend.url, { BODY_LIMIT_BYTES: "1024" });
    const response = await request(app)
      .post("/api/contributors/add")
      .set("Cookie", cookieHeader(token))
      .send({ platform_id: "octocat", platform_type: "github" });
    expect(response.status).toBe(200);
  });
});
