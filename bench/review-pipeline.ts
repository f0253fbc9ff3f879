/**
 * Review pipeline benchmark: from a signed `pull_request.opened` delivery to the review posted on
 * the fake GitHub, for a 500-line pull request (ten TypeScript files of 50 added lines, with whole
 * files fetched for Biome) and the built-in reviewer. The fake GitHub runs in a child process
 * (this file with `--fake`), so it does not share the backend's event loop. Deliveries are spaced
 * by BENCH_INTERVAL_MS (default 3.5 s): GitHub asks for writes that notify people to be spaced
 * (the throttling plugin waits 3 s between them), and this measures the pipeline, not that wait.
 *   node bench/review-pipeline.ts   (BENCH_REVIEWS, BENCH_INTERVAL_MS, DATABASE_URL for Postgres;
 *                                    embedded PGlite in a temporary folder otherwise)
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { Webhooks } from "@octokit/webhooks";
import { fakeRepository, gitHubAppEnv, startFakeGitHub } from "../tests/support/fake-github.ts";
import { startProTrial } from "../tests/support/review-queue.ts";
import {
  DATABASE,
  deliverPullRequestEvent,
  percentile,
  startBenchBackend,
  WEBHOOK_SECRET,
} from "./lib/backend.ts";

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 20);
const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 3500);
const INSTALLATION = 4343;
const REPOSITORY = 434343;
const BASE = "b".repeat(40);
const head = (n: number) => n.toString(16).padStart(40, "c");
const FILES = 10;
const LINES = 50;

/** A file of 50 lines, with a few things for the analyzers to find. */
function fileText(i: number): string {
  return Array.from({ length: LINES }, (_, line) => {
    if (line === 10) return "debugger;";
    if (line === 20) return "// eslint-disable-next-line no-console";
    return `export const value${i}_${line} = (input: number): number => input * ${line} + ${i};`;
  }).join("\n");
}

/** The child: the fake GitHub with one 500-line pull request per review, until stdin closes. */
async function fake(): Promise<void> {
  const github = await startFakeGitHub();
  github.addInstallation({
    id: INSTALLATION,
    account: "bench",
    repositories: [fakeRepository("bench", "app", REPOSITORY)],
  });
  const files = Array.from({ length: FILES }, (_, i) => {
    const text = fileText(i);
    const lines = text.split("\n");
    return {
      filename: `src/module${i}.ts`,
      text,
      patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join("\n")}`,
    };
  });
  for (let n = 1; n <= REVIEWS; n++) {
    github.pulls.addPullRequest("bench/app", {
      number: n,
      title: `Change ${n}`,
      author: { login: "octocat", type: "User" },
      head: { ref: `change-${n}`, sha: head(n) },
      base: { ref: "main", sha: BASE },
    });
    github.pulls.setDiff(
      "bench/app",
      BASE,
      head(n),
      files.map(({ filename, patch }) => ({ filename, status: "added", patch })),
    );
    for (const { filename, text } of files) github.pulls.setContent("bench/app", head(n), filename, text);
  }
  process.stdout.write(`${JSON.stringify(gitHubAppEnv(github))}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on("end", resolve));
  await github.close();
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, [import.meta.filename, "--fake"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  for await (const chunk of child.stdout) {
    output += String(chunk);
    if (output.includes("\n")) break;
  }
  const githubEnv = JSON.parse(output) as Record<string, string>;

  const { backend, url, orgId, stop } = await startBenchBackend(githubEnv, {
    name: "app",
    installation: INSTALLATION,
    repository: REPOSITORY,
    properties: { full_name: "bench/app" },
  });
  await startProTrial(backend.db, orgId);
  const webhooks = new Webhooks({ secret: WEBHOOK_SECRET });

  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  for (let n = 1; n <= REVIEWS; n++) {
    const body = JSON.stringify({
      action: "opened",
      installation: { id: INSTALLATION },
      repository: { id: REPOSITORY },
      pull_request: { number: n, head: { sha: head(n) }, base: { sha: BASE } },
    });
    const begin = performance.now();
    const response = await deliverPullRequestEvent(url, webhooks, body);
    const { outcome } = (await response.json()) as { outcome: string };
    if (outcome !== "queued") throw new Error(`delivery ${n}: ${outcome}`);
    let status = "queued";
    while (status === "queued" || status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const run = await backend.db
        .selectFrom("review_runs")
        .innerJoin("projects", "projects.id", "review_runs.project_id")
        .select("review_runs.status")
        .where("review_runs.pull_request", "=", n)
        .executeTakeFirst();
      status = run?.status ?? "queued";
    }
    const elapsed = performance.now() - begin;
    latencies.push(elapsed);
    statuses[status] = (statuses[status] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, INTERVAL_MS - elapsed)));
  }

  const first = latencies[0]?.toFixed(1);
  const warm = latencies.slice(1).sort((a, b) => a - b);
  console.table([
    {
      database: DATABASE,
      reviews: REVIEWS,
      "lines per PR": FILES * LINES,
      statuses: JSON.stringify(statuses),
      "first ms": first,
      "p50 ms": percentile(warm, 0.5),
      "p95 ms": percentile(warm, 0.95),
      "max ms": warm.at(-1)?.toFixed(1),
    },
  ]);
  await stop();
  child.stdin.end();
}

if (process.argv.includes("--fake")) await fake();
else await main();
