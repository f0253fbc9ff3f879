/**
 * The stack `npm start` brings up (Firebase Auth emulator, backend, gateway, each its own process,
 * production mode and local mode), on free loopback ports with a temporary data folder, on PGlite or
 * on a database of its own on a Postgres server. The services' output goes to a log file there.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type RunningStack, startStackIn } from "../../scripts/lib/stack.ts";

export type DatabaseKind = "pglite" | "postgres";

export interface BenchStack extends RunningStack {
  database: DatabaseKind;
  stop(): Promise<void>;
}

/** The Postgres server to bench on, when one is named. */
export const POSTGRES_SERVER_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

/** A database of its own on the Postgres server, dropped when the bench is done with it. */
async function freshPostgres(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  // The tests' helper reads the server from TEST_DATABASE_URL when first loaded.
  process.env.TEST_DATABASE_URL ||= POSTGRES_SERVER_URL;
  const { freshDatabase } = await import("../../tests/support/databases.ts");
  return freshDatabase("postgres");
}

export async function startBenchStack(
  database: DatabaseKind,
  env: Record<string, string> = {},
): Promise<BenchStack> {
  const workDir = await mkdtemp(path.join(tmpdir(), "argus-bench-"));
  const postgres = database === "postgres" ? await freshPostgres() : undefined;
  const cleanUp = async () => {
    await postgres?.drop();
    await rm(workDir, { recursive: true, force: true });
  };
  // The database is chosen here: the services must not pick DATABASE_URL up from this process.
  delete process.env.DATABASE_URL;
  let stack: RunningStack;
  try {
    stack = await startStackIn(workDir, { ...env, ...postgres?.env });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    ...stack,
    database,
    async stop() {
      await stack.stop();
      await cleanUp();
    },
  };
}
