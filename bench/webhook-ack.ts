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
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Webhooks } from "@octokit/webhooks";
import { createBackend } from "../backend/app.ts";
import { loadConfig } from "../backend/config.ts";
import { API_PATHS } from "../shared/contract.ts";
import { startServer } from "../shared/http-server.ts";
import { createLogger } from "../shared/logging.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/** Deliveries spread over this many pull requests: most coalesce into a queued run. */
const PULL_REQUESTS = Number(process.env.BENCH_PULL_REQUESTS ?? 20);
const SECRET = "bench-webhook-secret";
const INSTALLATION = 4242;
const REPOSITORY = 424242;

/** The child: sends the deliveries and prints its latencies as JSON. */
async function load(url: string): Promise<void> {
  const webhooks = new Webhooks({ secret: SECRET });
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
      const response = await fetch(`${url}${API_PATHS.githubWebhook}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "pull_request",
          "x-github-delivery": randomUUID(),
          "x-hub-signature-256": await webhooks.sign(body),
        },
        body,
      });
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
  const dataDir = await mkdtemp(path.join(tmpdir(), "argus-bench-"));
  const backend = await createBackend(
    loadConfig({
      LOG_LEVEL: "silent",
      SESSION_SECRET: "s".repeat(32),
      GITHUB_WEBHOOK_SECRET: SECRET,
      DATA_DIR: dataDir,
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    }),
  );
  const org = await backend.db
    .insertInto("organizations")
    .values({ name: "Bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await backend.db
    .insertInto("projects")
    .values({
      org_id: org.id,
      name: "bench",
      integration_key: String(INSTALLATION),
      integration_name: "github",
      integration_type: "git",
      external_link: "https://github.com/bench/bench",
      external_id: String(REPOSITORY),
    })
    .execute();
  const logger = createLogger({ name: "bench", level: "silent" });
  const running = await startServer(backend.app, {
    host: "127.0.0.1",
    port: 0,
    shutdownTimeoutMs: 2000,
    logger,
  });

  const child = spawn(process.execPath, [import.meta.filename, "--load", running.url], {
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
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  const runs = await backend.db
    .selectFrom("review_runs")
    .select(({ fn }) => fn.countAll<number>().as("count"))
    .executeTakeFirst();
  console.table([
    {
      database: process.env.DATABASE_URL ? "postgres" : "pglite",
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      statuses: JSON.stringify(statuses),
      "req/s": Math.round(REQUESTS / seconds),
      "p50 ms": at(0.5),
      "p95 ms": at(0.95),
      "p99 ms": at(0.99),
      "runs queued": Number(runs?.count ?? 0),
    },
  ]);
  await running.shutdown();
  await backend.close();
  await rm(dataDir, { recursive: true, force: true });
}

const loadAt = process.argv.indexOf("--load");
if (loadAt >= 0) await load(process.argv[loadAt + 1] ?? "");
else await main();
