/**
 * Several backends starting at once on one empty Postgres database end with one schema: the
 * migrations run under a Postgres advisory lock (Kysely's migrator takes it through the dialect's
 * adapter; decision 042). The control run, with that lock taken away, shows the race it prevents.
 */
import { Kysely, PostgresAdapter, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type Db, openDatabase } from "./database.ts";
import { migrateToLatest, migrations } from "./migrations.ts";
import type { Database } from "./schema.ts";

/** A Postgres database whose migrator takes no lock: what a backend would be without it. */
class UnlockedAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}
function openUnlocked(url: string): Db {
  const pool = new pg.Pool({ connectionString: url });
  pool.on("error", () => {});
  const dialect = new PostgresDialect({ pool });
  dialect.createAdapter = () => new UnlockedAdapter();
  return new Kysely<Database>({ dialect });
}

/** The backend's own database, as createBackend opens it. */
function openLocked(url: string): Promise<Db> {
  return openDatabase({ kind: "postgres", url });
}

/** Runs the migrations from two connection pools at once on a fresh database, as two starts would. */
async function migrateTwiceAtOnce(open: (url: string) => Db | Promise<Db>) {
  const fresh = await freshDatabase("postgres");
  if (fresh.target.kind !== "postgres") throw new Error("a Postgres database was expected");
  const url = fresh.target.url;
  const [first, second] = await Promise.all([open(url), open(url)]);
  try {
    const outcomes = await Promise.allSettled([migrateToLatest(first), migrateToLatest(second)]);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`
      .execute(first)
      .then((result) => result.rows.map((row) => row.name))
      .catch(() => []);
    return { failures: outcomes.filter((outcome) => outcome.status === "rejected").length, applied };
  } finally {
    await first.destroy();
    await second.destroy();
    await fresh.drop();
  }
}

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))(
  "migrations started twice at once on Postgres",
  () => {
    it("end with one schema and no error", async () => {
      for (let round = 0; round < 3; round++) {
        const { failures, applied } = await migrateTwiceAtOnce(openLocked);
        expect(failures).toBe(0);
        expect(applied).toEqual(Object.keys(migrations).sort());
      }
    }, 60_000);

    it("race without the advisory lock (the control)", async () => {
      let raced = 0;
      for (let round = 0; round < 3 && raced === 0; round++) {
        const { failures, applied } = await migrateTwiceAtOnce(openUnlocked);
        if (failures > 0 || applied.length !== Object.keys(migrations).length) raced += 1;
      }
      expect(raced).toBeGreaterThan(0);
    }, 60_000);
  },
);
