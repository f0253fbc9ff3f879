/**
 * A signed-in page takes the backend's word on its session from its own calls, not from a status
 * call of its own (docs/decisions/049-session-confirmed-by-page-calls.md), and keeps every guarantee
 * the status call gave: an ended session is refused on the next page, a page without calls still
 * asks, the names are the backend's now, the sliding refresh renews the cookie.
 */
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { FakeBackend } from "../support/fake-backend.ts";
import { fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, sessionCookieOf } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
beforeAll(() => {
  ensureBuild();
  backend = fakeBackend();
});

const now = () => Math.floor(Date.now() / 1000);
/** The calls that reached the backend with `token`, by path. */
const pathsCalledWith = (token: string) =>
  backend.calls.filter((call) => call.headers.authorization === `Bearer ${token}`).map((call) => call.path);

describe("a signed-in page whose loaders call the backend", () => {
  it("asks no session status: the answer to its own call confirms the session", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "page-confirmed-by-its-call" });
    const page = await request(app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(200);
    expect(pathsCalledWith(token)).toEqual([API_PATHS.projects]);
    expect(sessionCookieOf(page.headers)).toBeUndefined();
  });

  it("of a session ended elsewhere is refused before any of it is sent: to sign-in, the cookie cleared", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "page-of-ended-session" });
    expect((await request(app).get("/settings").set("Cookie", cookieHeader(token))).status).toBe(200);

    backend.revokedSessions.add("page-of-ended-session");
    backend.calls.length = 0;
    const page = await request(app).get("/settings?repositoryId=r1").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe("/login?redirectTo=%2Fsettings%3FrepositoryId%3Dr1");
    expect(sessionCookieOf(page.headers)).toMatch(/^auth_token=;.*Expires=Thu, 01 Jan 1970/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(pathsCalledWith(token)).not.toContain(API_PATHS.sessionStatus);

    // This instance now knows: the next page is refused without asking the backend anything.
    backend.calls.length = 0;
    const next = await request(app).get("/subscriptions").set("Cookie", cookieHeader(token));
    expect(next.status).toBe(302);
    expect(pathsCalledWith(token)).toEqual([]);
  });

  it("of a session ended elsewhere, asked for by a client navigation, answers the redirect to sign-in", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "navigation-of-ended-session" });
    backend.revokedSessions.add("navigation-of-ended-session");
    const data = await request(app)
      .get("/subscriptions.data?_routes=root%2Croutes%2Fapp-layout%2Croutes%2Fsubscriptions")
      .set("Cookie", cookieHeader(token));
    expect(data.text).toContain("/login?redirectTo=%2Fsubscriptions");
    expect(data.text).not.toContain("contributors");
    expect(sessionCookieOf(data.headers)).toMatch(/^auth_token=;/);
  });

  it("shows the names the backend has now, from the answer to its own call", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "renamed-elsewhere-page" });
    backend.currentNames = { name: "Ada King", orgName: "Difference Engines" };
    const page = await request(app).get("/home").set("Cookie", cookieHeader(token));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Welcome back, <!-- -->Ada");
    expect(page.text).toContain("Difference Engines");
    expect(page.text).not.toContain("Analytical Engines");
    expect(pathsCalledWith(token)).not.toContain(API_PATHS.sessionStatus);
  });

  it("with a token older than 55 minutes renews the cookie, and its calls go with the renewed token", async () => {
    const { app } = createTestGateway(backend.url);
    const old = await backend.mint({ sid: "page-sliding-refresh", iat: now() - 56 * 60 });
    const page = await request(app).get("/home").set("Cookie", cookieHeader(old));
    expect(page.status).toBe(200);
    const renewed = sessionCookieOf(page.headers)?.split(";")[0]?.slice("auth_token=".length);
    expect(renewed).toMatch(/^ey/);
    expect(renewed).not.toBe(old);
    expect(pathsCalledWith(old)).toEqual([API_PATHS.refresh]);
    expect(pathsCalledWith(renewed ?? "")).toEqual([API_PATHS.projects]);
  });

  it("keeps a session whose state the backend cannot tell right now", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}`,
    });
    const page = await request(app)
      .get("/home")
      .set("Cookie", cookieHeader(await backend.mint({ sid: "backend-unreachable" })));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Welcome back");
    expect(sessionCookieOf(page.headers)).toBeUndefined();
  });
});

describe("a signed-in page without calls to the backend", () => {
  it("asks the session status, and is refused once the session has ended", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "page-without-calls" });
    const live = await request(app).get("/payment-cancel").set("Cookie", cookieHeader(token));
    expect(live.status).toBe(200);
    expect(pathsCalledWith(token)).toEqual([API_PATHS.sessionStatus]);

    backend.revokedSessions.add("page-without-calls");
    const ended = await request(app).get("/payment-cancel").set("Cookie", cookieHeader(token));
    expect(ended.status).toBe(302);
    expect(ended.headers.location).toBe("/login?redirectTo=%2Fpayment-cancel");
    expect(sessionCookieOf(ended.headers)).toMatch(/^auth_token=;/);
  });

  it("is refused even when a client navigation's data request names only a route that shows no user", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "data-request-of-one-route" });
    const url = "/payment-cancel.data?_routes=routes%2Fpayment-cancel&error=card-declined";
    const live = await request(app).get(url).set("Cookie", cookieHeader(token));
    expect(live.text).toContain('"card-declined"');
    expect(pathsCalledWith(token)).toEqual([API_PATHS.sessionStatus]);

    backend.revokedSessions.add("data-request-of-one-route");
    const ended = await request(app).get(url).set("Cookie", cookieHeader(token));
    expect(ended.text).toContain('"redirect","/login?redirectTo=%2Fpayment-cancel%3Ferror%3Dcard-declined"');
    expect(ended.text).not.toContain('"card-declined"');
    expect(sessionCookieOf(ended.headers)).toMatch(/^auth_token=;/);
  });
});

describe("a guest page with a session cookie", () => {
  it("sends a live session home, and shows itself to a session that has ended, clearing the cookie", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint({ sid: "guest-page-with-cookie" });
    const live = await request(app).get("/login").set("Cookie", cookieHeader(token));
    expect(live.status).toBe(302);
    expect(live.headers.location).toBe("/home");

    backend.revokedSessions.add("guest-page-with-cookie");
    const ended = await request(app).get("/login").set("Cookie", cookieHeader(token));
    expect(ended.status).toBe(200);
    expect(ended.text).toContain("Sign in");
    expect(sessionCookieOf(ended.headers)).toMatch(/^auth_token=;/);
  });
});
