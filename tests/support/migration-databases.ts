/**
 * Fresh databases for the migration tests, each closed and dropped after its test: empty, or
 * migrated up to a named migration to seed the rows a later one rewrites.
 */
import { Migrator } from "kysely";
import { afterEach, expect } from "vitest";
import { type Db, openDatabase } from "../../backend/db/database.ts";
import { migrations } from "../../backend/db/migrations.ts";
import { type FreshDatabase, freshDatabase, type TestDatabaseKind } from "./databases.ts";

export function migrationDatabases() {
  let opened: Array<{ db: Db; fresh: FreshDatabase }> = [];
  afterEach(async () => {
    for (const { db, fresh } of opened) {
      await db.destroy();
      await fresh.drop();
    }
    opened = [];
  });

  async function open(kind: TestDatabaseKind): Promise<Db> {
    const fresh = await freshDatabase(kind);
    const db = await openDatabase(fresh.target);
    opened.push({ db, fresh });
    return db;
  }

  async function migratedUpTo(kind: TestDatabaseKind, name: string): Promise<Db> {
    const db = await open(kind);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(name)).error).toBeUndefined();
    return db;
  }

  return { open, migratedUpTo };
}
