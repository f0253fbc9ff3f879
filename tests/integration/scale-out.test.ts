/**
 * Two gateways in front of two backends on one Postgres database (docs/decisions/042-scale-out.md):
 * what one gateway or backend learns, every other applies at once. The /auth rate limit is counted
 * across both gateways, and a logout through one is refused by the other for pages, /api and
 * /auth/session. Each backend has its own pool and caches, each gateway its own session checker, as
 * separate processes would.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type RunningServer, startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../support/databases.ts";
import { cookieHeader, createTestGateway } from "../support/gateway.ts";
import { TEST_BACKEND_ENV } from "../support/test-backend.ts";

const RATE_LIMIT = 10;
const silent = createLogger({ name: "backend", level: "silent" });

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))(
  "two gateways and two backends on one Postgres",
  () => {
    let database: FreshDatabase;
    const backends: Backend[] = [];
    const servers: RunningServer[] = [];
    type Gateway = ReturnType<typeof createTestGateway>;
    let gateways: [Gateway, Gateway];

    beforeAll(async () => {
      ensureBuild();
      database = await freshDatabase("postgres");
      const env = { ...TEST_BACKEND_ENV, ...database.env, REVIEW_WORKERS: "0" };
      // Started at once, as replicas are: they share the database, nothing else.
      backends.push(...(await Promise.all([createBackend(loadConfig(env)), createBackend(loadConfig(env))])));
      for (const backend of backends) {
        servers.push(
          await startServer(backend.app, {
            host: "127.0.0.1",
            port: 0,
            shutdownTimeoutMs: 1000,
            logger: silent,
          }),
        );
      }
      const gatewayTo = (server: RunningServer) =>
        createTestGateway(server.url, {
          SESSION_SECRET: TEST_BACKEND_ENV.SESSION_SECRET,
          AUTH_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
          LOG_LEVEL: "silent",
          // Each test is another client address (behind a load balancer, as deployed).
          TRUST_PROXY: "1",
        });
      gateways = [gatewayTo(servers[0] as RunningServer), gatewayTo(servers[1] as RunningServer)];
    }, 120_000);

    afterAll(async () => {
      for (const server of servers) await server.shutdown();
      for (const backend of backends) await backend.close();
      await database?.drop();
    });

    it("count the /auth rate limit across both gateways", async () => {
      // Not across a minute's turn, where the fixed window starts again.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
      const statuses: number[] = [];
      for (let i = 0; i < RATE_LIMIT + 2; i++) {
        const gateway = gateways[i % 2] as Gateway;
        const response = await request(gateway.app)
          .post(API_PATHS.forgotPassword)
          .set("X-Forwarded-For", "203.0.113.1")
          .send({ email: "a@example.com" });
        statuses.push(response.status);
      }
      // Each gateway saw RATE_LIMIT / 2 + 1 calls, under the limit alone: only a shared count refuses.
      expect(statuses.slice(0, RATE_LIMIT).every((status) => status !== 429)).toBe(true);
      expect(statuses.slice(RATE_LIMIT)).toEqual([429, 429]);
    });

    it("refuse a session logged out through the other gateway at once, for pages, /api and /auth/session", async () => {
      const [a, b] = gateways;
      const account = await signedInAccount(backends[0] as Backend, "scale");
      const cookie = cookieHeader(account.token);
      expect((await request(b.app).get("/auth/session").set("Cookie", cookie)).body.user).not.toBeNull();
      expect((await request(b.app).get(API_PATHS.projects).set("Cookie", cookie)).status).toBe(200);
      expect((await request(b.app).get("/home").set("Cookie", cookie)).status).toBe(200);

      const bearer = `Bearer ${account.token}`;
      const backendB = backends[1] as Backend;
      expect((await request(backendB.app).get(API_PATHS.projects).set("Authorization", bearer)).status).toBe(
        200,
      );

      expect((await request(a.app).post(API_PATHS.logout).set("Cookie", cookie)).status).toBe(204);

      // The other backend, asked straight, has nothing cached that would keep the session.
      expect((await request(backendB.app).get(API_PATHS.projects).set("Authorization", bearer)).status).toBe(
        401,
      );

      expect((await request(b.app).get("/auth/session").set("Cookie", cookie)).body).toEqual({ user: null });
      expect((await request(b.app).get(API_PATHS.projects).set("Cookie", cookie)).status).toBe(401);
      const page = await request(b.app).get("/home").set("Cookie", cookie);
      expect(page.status).toBe(302);
      expect(String(page.headers.location)).toMatch(/^\/login/);
    });

    it("refuse a session logged out through the other gateway on the next page, whether its loaders call the backend or not", async () => {
      const [a, b] = gateways;
      for (const path of ["/home", "/subscriptions", "/payment-cancel"]) {
        const account = await signedInAccount(backends[0] as Backend, `scale-page-${path.slice(1)}`);
        const cookie = cookieHeader(account.token);
        const live = await request(b.app).get(path).set("Cookie", cookie);
        expect(live.status).toBe(200);
        if (path === "/home") expect(live.text).toContain(`Welcome back`);

        expect((await request(a.app).post(API_PATHS.logout).set("Cookie", cookie)).status).toBe(204);

        // The first request gateway b sees after the logout is the page itself.
        const page = await request(b.app).get(path).set("Cookie", cookie);
        expect(page.status).toBe(302);
        expect(page.headers.location).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
        expect(String(page.headers["set-cookie"])).toMatch(/auth_token=;/);
      }
    });
  },
);
