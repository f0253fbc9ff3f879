/**
 * A webhook storm on two backends and two gateways, each its own process, on one Postgres database
 * (bench/lib/scale-stack.ts; docs/decisions/042-scale-out.md): 40 signed deliveries for 10 pull
 * requests with redeliveries, out-of-order and reopened events, one event sent to both backends at
 * once, and the second backend SIGKILLed half-way. Each pull request's latest head ends with
 * exactly one posted review, no commit is reviewed twice, no comment is posted twice, every
 * delivery is taken, and the killed backend's runs finish on the other.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runStorm, type ScaleStack, startScaleStack } from "../../bench/lib/scale-stack.ts";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { TEST_DATABASE_KINDS } from "../support/databases.ts";

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))(
  "a webhook storm on two backends and two gateways",
  () => {
    let stack: ScaleStack | undefined;
    afterAll(async () => {
      await stack?.stop();
    });

    it("ends with one review per pull request head and nothing lost, though a backend is killed", async () => {
      ensureBuild();
      stack = await startScaleStack({
        serverUrl: serverUrl as string,
        backends: 2,
        gateways: 2,
        pullRequests: 10,
        latencyMs: 20,
      });
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
