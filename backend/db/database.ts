/**
 * Opens the database the configuration names: Postgres through `pg` when DATABASE_URL is set,
 * else embedded PGlite (a directory under DATA_DIR, or memory). Both speak the same SQL, so every
 * query and migration runs unchanged on either. `db.destroy()` closes it.
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { DatabaseTarget } from "../config.ts";
import { PGliteDialect } from "./pglite-dialect.ts";
import { StatementNamingClient } from "./prepared-statements.ts";
import { makeContentPrivate, privateFolder } from "./private-files.ts";
import type { Database } from "./schema.ts";
import { TableWritesPlugin } from "./table-writes.ts";

/**
 * The database or a transaction on it (a Kysely transaction is a Kysely): a query that takes a `Db`
 * runs inside the caller's transaction when given one. The one spelling of either across the backend.
 */
export type Db = Kysely<Database>;

/** The PGlite instance under each embedded database, for what must speak to it directly. */
const embedded = new WeakMap<Db, PGlite>();
const writesOf = new WeakMap<Db, TableWritesPlugin>();

/**
 * Postgres's default buffer cache (128 MB) lives inside the backend's own process when the database
 * is embedded, and fills as pages are read: a large organisation's lists grew the backend past
 * 600 MB. 16 MB holds the hot indexes and keeps the process near its Postgres-server size; the
 * operating system's file cache still serves what falls out (docs/decisions/038-server-side-paging.md).
 */
const EMBEDDED_SETTINGS = ["-c", "shared_buffers=16MB"];

export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, Client: StatementNamingClient });
    // An idle connection the server ends (a restart, a failover, a dropped database; also one still
    // closing after destroy()) is dropped by the pool, which then emits the error: without a
    // listener that would crash the process. Queries in flight still fail with their own error.
    pool.on("error", () => {});
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { dataDir } = target;
  // The database's files are the backend's alone (private-files.ts). PGlite gives a new database's
  // files mode 0666 whatever the umask, so its folder is made 0700 before it writes anything, and
  // what it wrote is made 0600 after; Postgres creates its later files 0600 itself.
  if (dataDir) await privateFolder(dataDir);
  // pg_trgm: the trigram indexes that answer the lists' searches (migration 0020).
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS],
  });
  if (dataDir) await makeContentPrivate(dataDir);
  const writes = new TableWritesPlugin();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client), plugins: [writes] });
  embedded.set(db, client);
  writesOf.set(db, writes);
  return db;
}

/**
 * The PGlite instance of an embedded database; undefined on Postgres. Whoever uses it must hold
 * the connection (`db.connection().execute(...)`), as every Kysely query does, so its statements
 * never land inside another holder's transaction on PGlite's single session.
 */
export function embeddedClient(db: Db): PGlite | undefined {
  return embedded.get(db);
}

/**
 * The writes of an embedded database as they happen (table-writes.ts), or undefined on Postgres.
 * Embedded PGlite belongs to this one process, so every write to it passes here and a cache of its
 * rows can be kept exact (the review queue's direct use of the client writes only its own schema);
 * a Postgres server has other writers (replicas, operators).
 */
export function embeddedWrites(db: Db): TableWritesPlugin | undefined {
  return writesOf.get(db);
}

/** Postgres' code for a unique-constraint violation (pg and PGlite both expose `code`). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "23505";
}
