/**
 * Webhook acknowledgement benchmark: how long the backend takes to answer GitHub's signed
 * `pull_request.synchronize` deliveries (verify, record, queue or coalesce, 202) while its workers
 * take the queued runs. GitHub gives up on a delivery after 10 s. The load comes from a child
 * process (this file with `--load`), so the client does not share the backend's event loop.
 *   node bench/webhook-ack.ts   (BENCH_REQUESTS, BENCH_CONCURRENCY, BENCH_PULL_REQUESTS,
 *                                DATABASE_URL for Postgres; embedded PGlite in a temporary folder otherwise)
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Webhooks } from "@octokit/webhooks";
import {
  DATABASE,
  deliverPullRequestEvent,
  percentile,
  startBenchBackend,
  WEBHOOK_SECRET,
} from "./lib/backend.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/** Deliveries spread over this many pull requests: most coalesce into a queued run. */
const PULL_REQUESTS = Number(process.env.BENCH_PULL_REQUESTS ?? 20);
const INSTALLATION = 4242;
const REPOSITORY = 424242;

/** The child: sends the deliveries and prints its latencies as JSON. */
async function load(url: string): Promise<void> {
  const webhooks = new Webhooks({ secret: WEBHOOK_SECRET });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  async function worker() {
    while (next < REQUESTS) {
      const n = next++;
      const body = JSON.stringify({
        action: "synchronize",
        installation: { id: INSTALLATION },
        repository: { id: REPOSITORY },
        pull_request: {
          number: (n % PULL_REQUESTS) + 1,
          head: { sha: randomUUID().replaceAll("-", "").padEnd(40, "0") },
          base: { sha: "f".repeat(40) },
        },
      });
      const begin = performance.now();
      const response = await deliverPullRequestEvent(url, webhooks, body);
      await response.arrayBuffer();
      latencies.push(performance.now() - begin);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  process.stdout.write(
    JSON.stringify({ latencies, statuses, seconds: (performance.now() - started) / 1000 }),
  );
}

async function main(): Promise<void> {
  const { backend, url, stop } = await startBenchBackend(
    {},
    { name: "bench", installation: INSTALLATION, repository: REPOSITORY },
  );

  const child = spawn(process.execPath, [import.meta.filename, "--load", url], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  for await (const chunk of child.stdout) output += String(chunk);
  const { latencies, statuses, seconds } = JSON.parse(output) as {
    latencies: number[];
    statuses: Record<string, number>;
    seconds: number;
  };
  latencies.sort((a, b) => a - b);
  const runs = await backend.db
    .selectFrom("review_runs")
    .select(({ fn }) => fn.countAll<number>().as("count"))
    .executeTakeFirst();
  console.table([
    {
      database: DATABASE,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      statuses: JSON.stringify(statuses),
      "req/s": Math.round(REQUESTS / seconds),
      "p50 ms": percentile(latencies, 0.5),
      "p95 ms": percentile(latencies, 0.95),
      "p99 ms": percentile(latencies, 0.99),
      "runs queued": Number(runs?.count ?? 0),
    },
  ]);
  await stop();
}

const loadAt = process.argv.indexOf("--load");
if (loadAt >= 0) await load(process.argv[loadAt + 1] ?? "");
else await main();
