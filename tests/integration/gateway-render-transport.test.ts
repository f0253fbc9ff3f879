/**
 * The loaders' calls from the gateway's renders go through the page handler's kept-alive transport
 * (client/lib/backend-transport.server.ts), and connections shared by every user's renders never
 * mix one user's call up with another's.
 */
import request from "supertest";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type FakeBackend, TEST_USER } from "../support/fake-backend.ts";
import { fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
beforeAll(() => {
  ensureBuild();
  backend = fakeBackend();
}, 300_000);
afterEach(() => {
  vi.restoreAllMocks();
});

const OTHER_USER = {
  sub: "user-987654321",
  sid: "session-2",
  email: "grace@example.com",
  name: "Grace Hopper",
  orgName: "Compilers",
} as const;

describe("the loaders' calls from a render", () => {
  it("reach the backend without the global fetch", async () => {
    const globalFetch = vi.spyOn(globalThis, "fetch");
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .get("/home")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.status).toBe(200);
    expect(backend.calls.filter((call) => call.path === API_PATHS.projects)).toHaveLength(1);
    const fetched = globalFetch.mock.calls.map(([input]) => new URL(String(input)).pathname);
    expect(fetched).not.toContain(API_PATHS.projects);
  });

  it("carry each user's own session when two users' pages render at once", async () => {
    const { app } = createTestGateway(backend.url);
    const ada = await backend.mint();
    const grace = await backend.mint(OTHER_USER);
    const renders = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const token = i % 2 ? grace : ada;
        return request(app).get("/home").set("Cookie", cookieHeader(token));
      }),
    );
    renders.forEach((page, i) => {
      const [own, other] = i % 2 ? [OTHER_USER, TEST_USER] : [TEST_USER, OTHER_USER];
      expect(page.status).toBe(200);
      expect(page.text).toContain(`Welcome back, <!-- -->${own.name.split(" ")[0]}<`);
      expect(page.text).not.toContain(other.name);
      expect(page.text).not.toContain(other.email);
    });
    const bearers = backend.calls
      .filter((call) => call.path === API_PATHS.projects)
      .map((call) => call.headers.authorization);
    expect(bearers.sort()).toEqual(
      [...Array(3).fill(`Bearer ${ada}`), ...Array(3).fill(`Bearer ${grace}`)].sort(),
    );
  });
});
