/**
 * The live sessions an embedded database has answered for, kept in memory so that an /api call on
 * PGlite costs one query (its own) instead of two: on PGlite's single connection the session's
 * lookup was as dear as the call's query. Exact, not time-bound: every write to sessions, users or
 * organizations (a logout, a revocation, a new name, a re-link) empties it before it runs and again
 * once it ran, and a lookup that overlapped a write is not kept. Only embedded PGlite, whose every
 * write passes through this process (db/database.ts); on Postgres each call reads the row.
 */
import { type Db, embeddedWrites } from "../db/database.ts";
import type { WrittenTables } from "../db/table-writes.ts";

/** The tables a session's row is read from (sessions.ts, findActiveSession). */
const SESSION_TABLES = ["sessions", "users", "organizations"] as const;
const MAX_ENTRIES = 10_000;

export interface SessionCache<T> {
  /** The session remembered for this session id and user, if any. */
  recall(key: string): T | undefined;
  /** Reads through `load` and keeps what it found, unless a write came in meanwhile. */
  load(key: string, read: () => Promise<T | undefined>): Promise<T | undefined>;
}

const touchesSessions = (tables: WrittenTables) =>
  tables === "all" || SESSION_TABLES.some((table) => tables.has(table));

export function createSessionCache<T>(onWrite: (listener: (tables: WrittenTables) => void) => void) {
  const entries = new Map<string, T>();
  // Bumped by every write: a lookup that saw it change may have read the row from before the write.
  let generation = 0;
  onWrite((tables) => {
    if (!touchesSessions(tables)) return;
    generation += 1;
    entries.clear();
  });
  const cache: SessionCache<T> = {
    recall: (key) => entries.get(key),
    async load(key, read) {
      const seen = generation;
      const value = await read();
      if (value !== undefined && seen === generation) {
        entries.set(key, value);
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      }
      return value;
    },
  };
  return cache;
}

const caches = new WeakMap<Db, SessionCache<unknown> | null>();

/** The session cache of an embedded database, made on first use; undefined on Postgres. */
export function sessionCacheOf<T>(db: Db): SessionCache<T> | undefined {
  let cache = caches.get(db);
  if (cache === undefined) {
    const writes = embeddedWrites(db);
    cache = writes ? createSessionCache<unknown>((listener) => writes.onWrite(listener)) : null;
    caches.set(db, cache);
  }
  return (cache ?? undefined) as SessionCache<T> | undefined;
}
