/**
 * Several backends and gateways as separate processes on one Postgres database, the fake GitHub
 * behind a proxy that adds GitHub's typical latency: shared by `npm run bench:scale` and
 * tests/integration/scale-storm.test.ts (docs/decisions/042-scale-out.md). The storm: scale-storm.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../../backend/db/database.ts";
import { migrateToLatest } from "../../backend/db/migrations.ts";
import { claimPort } from "../../scripts/lib/ports.ts";
import {
  type FakeGitHub,
  fakeRepository,
  gitHubAppEnv,
  startFakeGitHub,
} from "../../tests/support/fake-github.ts";
import { startProTrial } from "../../tests/support/review-queue.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const READY_TIMEOUT_MS = 60_000;
export const STORM_WEBHOOK_SECRET = "scale-webhook-secret";
export const INSTALLATION = 4242;
export const REPOSITORY = 424242;
export const FULL_NAME = "bench/app";
export const BASE = "b".repeat(40);
/** The PR's first head and the head a push moves it to. */
export const headOf = (pr: number, push: 1 | 2) => `${push}${pr.toString(16).padStart(39, "0")}`;

/** Forwards every call to `target` after `latencyMs`, as GitHub's API takes that long to answer. */
async function slowProxy(target: string, latencyMs: number): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    setTimeout(() => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    }, latencyMs);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function waitUntilAnswering(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited before it was ready (${child.exitCode})`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not answer at ${url}`);
}

export interface ScaleProcess {
  url: string;
  child: ChildProcess;
}

export interface ScaleStack {
  github: FakeGitHub;
  backends: ScaleProcess[];
  gateways: ScaleProcess[];
  databaseUrl: string;
  /** Kills a backend at once, as a crash or an OOM kill would. */
  kill(backend: ScaleProcess): void;
  stop(): Promise<void>;
}

export interface ScaleOptions {
  /** A Postgres server's URL; a database of its own is made there and dropped at stop. */
  serverUrl: string;
  backends: number;
  gateways: number;
  pullRequests: number;
  latencyMs: number;
  reviewWorkers?: number;
  /** Where the services' output goes (inherit: the terminal); ignored by default. */
  output?: "inherit" | "ignore";
}

function spawnNode(script: string, env: Record<string, string>, output: "inherit" | "ignore"): ChildProcess {
  return spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", output, output],
  });
}

/** Each PR: one TypeScript file, at its first head and after a push (what synchronize reviews). */
function seedPullRequests(github: FakeGitHub, count: number): void {
  github.addInstallation({
    id: INSTALLATION,
    account: "bench",
    repositories: [fakeRepository("bench", "app", REPOSITORY)],
  });
  for (let pr = 1; pr <= count; pr++) {
    github.pulls.addPullRequest(FULL_NAME, {
      number: pr,
      title: `Change ${pr}`,
      author: { login: "octocat", type: "User" },
      head: { ref: `change-${pr}`, sha: headOf(pr, 1) },
      base: { ref: "main", sha: BASE },
    });
    for (const push of [1, 2] as const) {
      const text = [`export const a${pr} = ${push};`, "debugger;", `console.log(a${pr});`].join("\n");
      const patch = `@@ -0,0 +1,3 @@\n${text
        .split("\n")
        .map((line) => `+${line}`)
        .join("\n")}`;
      github.pulls.setDiff(FULL_NAME, BASE, headOf(pr, push), [
        { filename: `src/pr${pr}.ts`, status: "added", patch },
      ]);
      github.pulls.setContent(FULL_NAME, headOf(pr, push), `src/pr${pr}.ts`, text);
    }
    // GitHub's truth after the storm: every PR was pushed to once.
    github.pulls.pushTo(FULL_NAME, pr, headOf(pr, 2));
  }
}

/** A fresh database with the organisation and its GitHub project, migrated before any backend starts. */
async function prepareDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `argus_scale_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: "postgres", url: url.href });
  await migrateToLatest(db);
  const org = await db
    .insertInto("organizations")
    .values({ name: "Bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("projects")
    .values({
      org_id: org.id,
      name: "app",
      integration_key: String(INSTALLATION),
      integration_name: "github",
      integration_type: "git",
      external_link: "https://github.com/bench/app",
      external_id: String(REPOSITORY),
      properties: JSON.stringify({ full_name: FULL_NAME }),
    })
    .execute();
  await startProTrial(db, org.id);
  await db.destroy();
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function startScaleStack(options: ScaleOptions): Promise<ScaleStack> {
  const output = options.output ?? "ignore";
  const github = await startFakeGitHub();
  seedPullRequests(github, options.pullRequests);
  const slow = await slowProxy(github.url, options.latencyMs);
  const database = await prepareDatabase(options.serverUrl);
  const children: ChildProcess[] = [];
  const backends: ScaleProcess[] = [];
  const gateways: ScaleProcess[] = [];
  try {
    for (let i = 0; i < options.backends; i++) {
      const port = await claimPort();
      const child = spawnNode(
        "backend/index.ts",
        {
          ...gitHubAppEnv(github),
          GITHUB_API_URL: slow.url,
          DATABASE_URL: database.url,
          BACKEND_HOST: "127.0.0.1",
          BACKEND_PORT: String(port),
          SESSION_SECRET: "s".repeat(32),
          GITHUB_WEBHOOK_SECRET: STORM_WEBHOOK_SECRET,
          REVIEW_WORKERS: String(options.reviewWorkers ?? 2),
        },
        output,
      );
      children.push(child);
      backends.push({ url: `http://127.0.0.1:${port}`, child });
    }
    for (const [i, backend] of backends.entries())
      await waitUntilAnswering(`${backend.url}/healthz`, backend.child, `backend ${i + 1}`);
    for (let i = 0; i < options.gateways; i++) {
      const port = await claimPort();
      const backend = backends[i % backends.length] as ScaleProcess;
      const child = spawnNode(
        "server/index.ts",
        {
          HOST: "127.0.0.1",
          PORT: String(port),
          BACKEND_URL: backend.url,
          SESSION_SECRET: "s".repeat(32),
          FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
          // Behind one proxy (nginx, or the bench and tests that stand in for it).
          TRUST_PROXY: "1",
        },
        output,
      );
      children.push(child);
      gateways.push({ url: `http://127.0.0.1:${port}`, child });
    }
    for (const [i, gateway] of gateways.entries())
      await waitUntilAnswering(`${gateway.url}/healthz`, gateway.child, `gateway ${i + 1}`);
  } catch (error) {
    for (const child of children) child.kill("SIGKILL");
    slow.server.close();
    await github.close();
    await database.drop();
    throw error;
  }
  return {
    github,
    backends,
    gateways,
    databaseUrl: database.url,
    kill(backend) {
      backend.child.kill("SIGKILL");
    },
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          await once(child, "exit");
        }),
      );
      slow.server.closeAllConnections();
      slow.server.close();
      await github.close();
      await database.drop();
    },
  };
}
