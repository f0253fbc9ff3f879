/**
 * When a session ends and when it must not: logout and revocation stop a copied cookie from opening
 * pages, and a key outage signs nobody out.
 */
import request from "supertest";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import type { FakeBackend } from "../support/fake-backend.ts";
import { fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, sessionCookieOf } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
beforeAll(() => {
  ensureBuild();
  backend = fakeBackend();
});
afterEach(() => {
  vi.useRealTimers();
});

const statusChecks = () => backend.calls.filter((call) => call.path === API_PATHS.sessionStatus);

describe("after logout, a copy of the old cookie", () => {
  it("no longer opens pages, /auth/session or /api on the instance that logged out", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "copied-cookie" });
    expect((await request(app).get("/home").set("Cookie", cookieHeader(token))).status).toBe(200);

    expect((await request(app).post("/auth/logout").set("Cookie", cookieHeader(token))).status).toBe(204);

    const page = await request(app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(302);
    expect(String(page.headers.location)).toMatch(/^\/login/);
    expect(sessionCookieOf(page.headers)).toMatch(/^auth_token=;/);
    const session = await request(app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(session.body).toEqual({ user: null });
    const api = await request(app).get("/api/projects").set("Cookie", cookieHeader(token));
    expect(api.status).toBe(401);
  });

  it("is refused at once by another instance, which asks the backend on every request", async () => {
    const other = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "ended-elsewhere-now" });
    const before = await request(other.app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(before.body.user).not.toBeNull();

    backend.revokedSessions.add("ended-elsewhere-now");
    const page = await request(other.app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(302);
    const session = await request(other.app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(session.body).toEqual({ user: null });
  });

  it("with SESSION_STATUS_CACHE_SECONDS, stops working on another instance within that time, without a backend call per request", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const other = createTestGateway(backend.url, { SESSION_STATUS_CACHE_SECONDS: "30" });
    const token = await backend.mint({ sid: "ended-elsewhere" });
    for (let i = 0; i < 5; i++) {
      const response = await request(other.app).get("/auth/session").set("Cookie", cookieHeader(token));
      expect(response.body.user).not.toBeNull();
    }
    expect(statusChecks()).toHaveLength(1);

    backend.revokedSessions.add("ended-elsewhere");
    vi.setSystemTime(Date.now() + 31_000);
    const page = await request(other.app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(302);
    const session = await request(other.app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(session.body).toEqual({ user: null });
  });

  it("keeps a session whose status the backend cannot tell right now", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}`,
    });
    const response = await request(app)
      .get("/auth/session")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.body.user).not.toBeNull();
    expect(sessionCookieOf(response.headers)).toBeUndefined();
  });
});

describe("proxied /api calls", () => {
  it("do not ask the backend for the session's status: the backend checks their session itself", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "api-without-status-calls" });
    const before = statusChecks().length;
    for (let i = 0; i < 3; i++) {
      const response = await request(app).get(API_PATHS.projects).set("Cookie", cookieHeader(token));
      expect(response.status).toBe(200);
    }
    expect(statusChecks()).toHaveLength(before);
    const forwarded = backend.calls.filter((call) => call.path === API_PATHS.projects);
    expect(forwarded.at(-1)?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it("of a session ended elsewhere are refused with 401, the cookie cleared, and this instance refuses the session from then on", async () => {
    // Kept live for 30 s after one check: only the backend's refusal of the /api call can end it sooner.
    const other = createTestGateway(backend.url, { SESSION_STATUS_CACHE_SECONDS: "30" });
    const token = await backend.mint({ sid: "revoked-during-api-calls" });
    const before = await request(other.app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(before.body.user).not.toBeNull();

    backend.revokedSessions.add("revoked-during-api-calls");
    const api = await request(other.app).get(API_PATHS.projects).set("Cookie", cookieHeader(token));
    expect(api.status).toBe(401);
    expect(sessionCookieOf(api.headers)).toMatch(/^auth_token=;.*Expires=Thu, 01 Jan 1970/);
    expect(api.headers["cache-control"]).toBe("no-store");

    const session = await request(other.app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(session.body).toEqual({ user: null });
    const page = await request(other.app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(302);
    const calls = backend.calls.length;
    const again = await request(other.app).get(API_PATHS.projects).set("Cookie", cookieHeader(token));
    expect(again.status).toBe(401);
    expect(backend.calls).toHaveLength(calls);
  });

  it("with a token older than 55 minutes renew it, and go upstream with the renewed one", async () => {
    const { app } = createTestGateway(backend.url);
    const old = await backend.mint({
      sid: "api-sliding-refresh",
      iat: Math.floor(Date.now() / 1000) - 56 * 60,
    });
    const response = await request(app).get(API_PATHS.projects).set("Cookie", cookieHeader(old));
    expect(response.status).toBe(200);
    const cookie = sessionCookieOf(response.headers);
    expect(cookie).toMatch(/^auth_token=ey.*HttpOnly/);
    const renewed = cookie?.split(";")[0]?.slice("auth_token=".length);
    expect(renewed).not.toBe(old);
    const forwarded = backend.calls.filter((call) => call.path === API_PATHS.projects).at(-1);
    expect(forwarded?.headers.authorization).toBe(`Bearer ${renewed}`);
  });
});

describe("when the session keys cannot be fetched", () => {
  it("signs nobody out, answers 503 where a decision is needed, and recovers", async () => {
    backend.jwksDown = true;
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint();

    const page = await request(app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(503);
    expect(page.headers["retry-after"]).toBeDefined();
    const session = await request(app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(session.status).toBe(503);
    expect(session.body.code).toBe(ERROR_CODES.sessionCheckUnavailable);
    const api = await request(app).get("/api/projects").set("Cookie", cookieHeader(token));
    expect(api.status).toBe(503);
    for (const response of [page, session, api]) expect(sessionCookieOf(response.headers)).toBeUndefined();

    backend.jwksDown = false;
    const again = await request(app).get("/auth/session").set("Cookie", cookieHeader(token));
    expect(again.status).toBe(200);
    expect(again.body.user).not.toBeNull();
  });

  it("still signs out on request, and the backend still revokes the session", async () => {
    backend.jwksDown = true;
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "logout-during-outage" });
    const response = await request(app).post("/auth/logout").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(204);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
    expect(backend.revokedSessions.has("logout-during-outage")).toBe(true);
  });
});
