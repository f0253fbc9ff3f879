/**
 * The databases the backend's tests run on: embedded PGlite always, and a real Postgres server too
 * when TEST_DATABASE_URL names one (CI starts one), so the `pg` path is tested, not assumed.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../../backend/config.ts";

export type TestDatabaseKind = "pglite" | "postgres";

const serverUrl = process.env.TEST_DATABASE_URL;
if (process.env.CI && !serverUrl) {
  throw new Error("CI must set TEST_DATABASE_URL so the backend is tested on a Postgres server too");
}

export const TEST_DATABASE_KINDS: TestDatabaseKind[] = serverUrl ? ["pglite", "postgres"] : ["pglite"];

export interface FreshDatabase {
  /** Environment for loadConfig that points at this database. */
  env: Record<string, string>;
  target: DatabaseTarget;
  drop(): Promise<void>;
}

async function onServer(work: string | ((client: pg.Client) => Promise<void>)): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    if (typeof work === "string") await client.query(work);
    else await work(client);
  } finally {
    await client.end();
  }
}

const CLOSE_WAIT_MS = 5000;

/**
 * Drops a test database once its connections are gone. A pool's `end()` resolves before its
 * connections have closed, and FORCE would cut one of them mid-goodbye, which its client then
 * reports as an unhandled error (57P01) in whatever test runs next.
 */
function dropOnServer(name: string): Promise<void> {
  return onServer(async (client) => {
    const deadline = Date.now() + CLOSE_WAIT_MS;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ open: number }>(
        "select count(*)::int as open from pg_stat_activity where datname = $1",
        [name],
      );
      if (!rows[0]?.open) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/**
 * A new, empty database: PGlite in memory (or in a temporary folder when it must outlive a restart),
 * or a database of its own on the Postgres server.
 */
export async function freshDatabase(
  kind: TestDatabaseKind,
  options: { survivesRestart?: boolean } = {},
): Promise<FreshDatabase> {
  if (kind === "pglite" && options.survivesRestart) {
    const dataDir = await mkdtemp(path.join(tmpdir(), "argus-pglite-"));
    return {
      env: { DATA_DIR: dataDir },
      target: { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  if (kind === "pglite") {
    return {
      env: { DATA_DIR: "memory://" },
      target: { kind: "pglite", dataDir: undefined },
      drop: async () => {},
    };
  }
  const name = `argus_test_${randomUUID().replaceAll("-", "")}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl as string);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    target: { kind: "postgres", url: url.toString() },
    drop: () => dropOnServer(name),
  };
}
