/**
 * The stack `npm start` brings up, on a database seeded beforehand through the backend's own data
 * layer with organisations of given sizes (org-seed.ts), each with a signed-in account: for
 * bench:org and the browser tests of the paged lists. The accounts' sessions are made in the
 * database with the session secret the stack then runs with, so their tokens verify there.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { type RunningStack, startStackIn } from "../../scripts/lib/stack.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type OrgSize, seedOrganisation } from "./org-seed.ts";
import { POSTGRES_SERVER_URL } from "./stack.ts";

export interface SeededStack<Name extends string> {
  stack: RunningStack;
  /** Each organisation's session token (the `auth_token` cookie's value). */
  tokens: Record<Name, string>;
  stop(): Promise<void>;
}

export async function startSeededStack<Name extends string>(
  orgs: Record<Name, OrgSize>,
  { postgres = false, log = () => {} }: { postgres?: boolean; log?: (line: string) => void } = {},
): Promise<SeededStack<Name>> {
  const workDir = await mkdtemp(path.join(tmpdir(), "argus-seeded-"));
  const sessionSecret = `seeded-${"s".repeat(32)}`;
  let database: { env: Record<string, string>; drop(): Promise<void> } | undefined;
  if (postgres) {
    if (!POSTGRES_SERVER_URL) throw new Error("Postgres needs TEST_DATABASE_URL or DATABASE_URL");
    process.env.TEST_DATABASE_URL ||= POSTGRES_SERVER_URL;
    const { freshDatabase } = await import("../../tests/support/databases.ts");
    database = await freshDatabase("postgres");
  }
  const cleanUp = async () => {
    await database?.drop();
    await rm(workDir, { recursive: true, force: true });
  };
  // The database is chosen here: the services must not pick DATABASE_URL up from this process.
  delete process.env.DATABASE_URL;
  try {
    const where = database?.env ?? { DATA_DIR: path.join(workDir, "data") };
    const backend = await createBackend(
      loadConfig({ ...where, SESSION_SECRET: sessionSecret, LOG_LEVEL: "silent" }),
    );
    const tokens = {} as Record<Name, string>;
    try {
      for (const name of Object.keys(orgs) as Name[]) {
        const account = await signedInAccount(backend, `seeded-${name}`, "github");
        log(`seeding the ${name} organisation`);
        await seedOrganisation(backend.db, account.orgId, name, orgs[name]);
        tokens[name] = account.token;
      }
      // What autovacuum does on a server (PGlite has none): the planner's statistics, the visibility map.
      await sql`vacuum analyze`.execute(backend.db);
    } finally {
      await backend.close();
    }
    log(`starting the stack on ${postgres ? "Postgres" : "PGlite"}`);
    const stack = await startStackIn(workDir, { SESSION_SECRET: sessionSecret, ...database?.env });
    return {
      stack,
      tokens,
      async stop() {
        await stack.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
