/**
 * Two backends and two gateways, each its own process, on one Postgres database
 * (bench/lib/scale-stack.ts, scale-storm.ts; docs/decisions/042-scale-out.md). First what must hold across
 * processes for people: the /auth rate limit counted across both gateways, and a logout through one
 * refused at once through the other. Then a webhook storm: 40 signed deliveries for 10 pull
 * requests with redeliveries, out-of-order and reopened events, one event sent to both backends at
 * once, and the second backend SIGKILLed half-way. Each pull request's latest head ends with
 * exactly one posted review, no commit is reviewed twice, no comment is posted twice, every
 * delivery is taken, and the killed backend's runs finish on the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionTokens, sessionKeyFromSecret } from "../../backend/auth/session-tokens.ts";
import { systemClock } from "../../backend/billing/clock.ts";
import { loadConfig } from "../../backend/config.ts";
import { type Db, openDatabase } from "../../backend/db/database.ts";
import { type ScaleStack, startScaleStack } from "../../bench/lib/scale-stack.ts";
import { runStorm } from "../../bench/lib/scale-storm.ts";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../support/databases.ts";
import { cookieHeader } from "../support/gateway.ts";
import { TEST_BACKEND_ENV } from "../support/test-backend.ts";

const serverUrl = process.env.TEST_DATABASE_URL;
const RATE_LIMIT = 30;

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))(
  "two backends and two gateways as processes",
  () => {
    let stack: ScaleStack;
    let db: Db | undefined;
    beforeAll(async () => {
      ensureBuild();
      stack = await startScaleStack({
        serverUrl: serverUrl as string,
        backends: 2,
        gateways: 2,
        pullRequests: 10,
        latencyMs: 20,
      });
    }, 120_000);
    afterAll(async () => {
      await db?.destroy();
      await stack?.stop();
    });

    const gatewayUrl = (i: number) => stack.gateways[i]?.url ?? "";

    it("count the /auth rate limit across both gateways", async () => {
      // Not across a minute's turn, where the fixed window starts again.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
      const statuses: number[] = [];
      for (let i = 0; i < RATE_LIMIT + 2; i++) {
        const response = await fetch(`${gatewayUrl(i % 2)}${API_PATHS.forgotPassword}`, {
          method: "POST",
          // A client address of its own, as the load balancer in front would say.
          headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
          body: JSON.stringify({ email: "a@example.com" }),
        });
        await response.body?.cancel();
        statuses.push(response.status);
      }
      expect(statuses.slice(0, RATE_LIMIT)).not.toContain(429);
      expect(statuses.slice(RATE_LIMIT)).toEqual([429, 429]);
    });

    it("refuse a session logged out through one gateway at once through the other", async () => {
      db = await openDatabase({ kind: "postgres", url: stack.databaseUrl });
      const config = loadConfig({ ...TEST_BACKEND_ENV, DATABASE_URL: stack.databaseUrl });
      const tokens = createSessionTokens(
        sessionKeyFromSecret(TEST_BACKEND_ENV.SESSION_SECRET),
        config.session,
      );
      const account = await signedInAccount({ db, tokens, trial: { clock: systemClock, days: 14 } }, "storm");
      const cookie = cookieHeader(account.token);
      const get = (i: number, path: string) =>
        fetch(`${gatewayUrl(i)}${path}`, { headers: { cookie }, redirect: "manual" });
      expect(((await (await get(1, API_PATHS.session)).json()) as { user: unknown }).user).not.toBeNull();
      expect((await get(1, API_PATHS.projects)).status).toBe(200);
      expect((await get(1, "/home")).status).toBe(200);

      const logout = await fetch(`${gatewayUrl(0)}${API_PATHS.logout}`, {
        method: "POST",
        headers: { cookie, origin: gatewayUrl(0) },
      });
      expect(logout.status).toBe(204);

      expect(await (await get(1, API_PATHS.session)).json()).toEqual({ user: null });
      expect((await get(1, API_PATHS.projects)).status).toBe(401);
      const page = await get(1, "/home");
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toMatch(/^\/login/);
    });

    it("end a webhook storm with one review per pull request head and nothing lost, though a backend is killed", async () => {
      const result = await runStorm(stack, {
        pullRequests: 10,
        killAt: 0.5,
        concurrency: 4,
        deadlineMs: 100_000,
      });
      expect(stack.backends[1]?.child.signalCode).toBe("SIGKILL");
      expect(result.problems).toEqual([]);
      expect(result.lost).toBe(0);
      expect(result.deliveries).toBe(40);
      // The latest head of each of the 10 was reviewed; first heads too, unless superseded first.
      expect(result.reviews).toBeGreaterThanOrEqual(10);
    }, 150_000);
  },
);
