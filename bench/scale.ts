/**
 * Scale-out benchmark (docs/decisions/042-scale-out.md): review throughput with one backend and
 * with two on one Postgres database, then the full webhook storm with a backend SIGKILLed half-way
 * and the invariants checked after it. Every service is its own process; the fake GitHub answers
 * after BENCH_GITHUB_LATENCY_MS (150, what GitHub's API typically takes). With Debian's nginx
 * installed, the storm goes through nginx in front of the two gateways; else round-robin here.
 *   npm run bench:scale   (BENCH_DATABASE_URL or TEST_DATABASE_URL: a Postgres server where a
 *                          database is made per run; BENCH_PULL_REQUESTS, default 100)
 */

import { startNginx } from "./lib/nginx.ts";
import { type ScaleStack, startScaleStack } from "./lib/scale-stack.ts";
import { runStorm, type StormResult } from "./lib/scale-storm.ts";

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://argus:argus@127.0.0.1:5432/argus_test";
const PULL_REQUESTS = Number(process.env.BENCH_PULL_REQUESTS ?? 100);
const LATENCY_MS = Number(process.env.BENCH_GITHUB_LATENCY_MS ?? 150);
const DEADLINE_MS = 10 * 60_000;

async function measure(backends: number, gateways: number, killAt: number): Promise<StormResult> {
  let stack: ScaleStack | undefined;
  try {
    stack = await startScaleStack({
      serverUrl: SERVER_URL,
      backends,
      gateways,
      pullRequests: PULL_REQUESTS,
      latencyMs: LATENCY_MS,
    });
    const nginx = gateways > 1 ? await startNginxInFront(stack) : undefined;
    try {
      return await runStorm(stack, {
        pullRequests: PULL_REQUESTS,
        killAt,
        concurrency: 16,
        deadlineMs: DEADLINE_MS,
        ...(nginx ? { entry: nginx.url } : {}),
      });
    } finally {
      await nginx?.stop();
    }
  } finally {
    await stack?.stop();
  }
}

/** nginx in front of every gateway, when Debian's nginx is installed. */
async function startNginxInFront(stack: ScaleStack) {
  return startNginx(stack.gateways.map((gateway) => gateway.url));
}

function row(label: string, result: StormResult) {
  return {
    run: label,
    deliveries: result.deliveries,
    "taken first try": result.acceptedFirstTry,
    lost: result.lost,
    reviews: result.reviews,
    "elapsed s": (result.elapsedMs / 1000).toFixed(1),
    "reviews/min": result.reviewsPerMinute.toFixed(1),
    runs: JSON.stringify(result.runs),
    invariants: result.problems.length ? result.problems.slice(0, 3).join("; ") : "hold",
  };
}

async function main(): Promise<void> {
  const one = await measure(1, 1, 0);
  const two = await measure(2, 2, 0);
  const storm = await measure(2, 2, 0.5);
  if (Object.keys(storm.failures).length) console.log("failed runs in the storm:", storm.failures);
  console.table([row("1 backend", one), row("2 backends", two), row("2 backends, one SIGKILLed", storm)]);
  const ratio = two.reviewsPerMinute / one.reviewsPerMinute;
  console.log(`throughput 2 backends / 1 backend: ${ratio.toFixed(2)}x (target >= 1.6x)`);
  const failed = [one, two, storm].some((result) => result.problems.length > 0);
  if (failed) process.exitCode = 1;
}

await main();
