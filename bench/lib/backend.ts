/**
 * What the backend benchmarks share: the backend on loopback with its review workers (embedded
 * PGlite in a temporary folder, or Postgres with DATABASE_URL) and an organisation with one GitHub
 * project, signed `pull_request` deliveries to its webhook, and the percentiles they report.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Webhooks } from "@octokit/webhooks";
import { type Backend, createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { quantile } from "./stats.ts";

export const WEBHOOK_SECRET = "bench-webhook-secret";
/** The database the figures are for. */
export const DATABASE = process.env.DATABASE_URL ? "postgres" : "pglite";

export interface BenchProject {
  /** The repository's name under the `bench` account. */
  name: string;
  installation: number;
  repository: number;
  properties?: Record<string, unknown>;
}

export interface BenchBackend {
  backend: Backend;
  url: string;
  orgId: string;
  stop(): Promise<void>;
}

/** Starts the backend with `env` added to its configuration, and gives it organisation "Bench" with `project`. */
export async function startBenchBackend(
  env: Record<string, string>,
  project: BenchProject,
): Promise<BenchBackend> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "argus-bench-"));
  const backend = await createBackend(
    loadConfig({
      LOG_LEVEL: "silent",
      SESSION_SECRET: "s".repeat(32),
      GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ...env,
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
      name: project.name,
      integration_key: String(project.installation),
      integration_name: "github",
      integration_type: "git",
      external_link: `https://github.com/bench/${project.name}`,
      external_id: String(project.repository),
      ...(project.properties ? { properties: JSON.stringify(project.properties) } : {}),
    })
    .execute();
  const running = await startServer(backend.app, {
    host: "127.0.0.1",
    port: 0,
    shutdownTimeoutMs: 2000,
    logger: createLogger({ name: "bench", level: "silent" }),
  });
  return {
    backend,
    url: running.url,
    orgId: org.id,
    async stop() {
      await running.shutdown();
      await backend.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Posts `body` to the webhook at `url` as GitHub delivers a `pull_request` event, signed. */
export async function deliverPullRequestEvent(
  url: string,
  webhooks: Webhooks,
  body: string,
): Promise<Response> {
  return fetch(`${url}${API_PATHS.githubWebhook}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await webhooks.sign(body),
    },
    body,
  });
}

/** The `q` quantile of `sorted` (ascending) in ms to one decimal. */
export function percentile(sorted: number[], q: number): string | undefined {
  const value = quantile(sorted, q);
  return Number.isNaN(value) ? undefined : value.toFixed(1);
}
