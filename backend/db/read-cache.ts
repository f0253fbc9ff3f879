/**
 * Rows an embedded database has answered, kept in memory so that a hot read costs no query: on
 * PGlite every query passes its protocol messages through WebAssembly in this process, and planning
 * a short query costs more than running it (docs/performance.md). Exact, not time-bound: a write to
 * one of the tables a cache reads from (or to tables that cannot be told) empties it before the
 * write runs and again once it ran, and a read that overlapped a write is not kept. Only embedded
 * PGlite, whose every write passes through this process and its Kysely plugin (database.ts,
 * table-writes.ts); on Postgres other processes write too, so every read goes to the database.
 */
import { type Db, embeddedWrites } from "./database.ts";
import type { WrittenTables } from "./table-writes.ts";

const MAX_ENTRIES = 10_000;

export interface ReadCache<T> {
  /** What was read for this key, if it is still current. */
  recall(key: string): T | undefined;
  /** Reads through `read` and keeps what it found, unless a write came in meanwhile. */
  load<Found extends T | undefined>(key: string, read: () => Promise<Found>): Promise<Found>;
}

/** A cache of rows read from `tables`; `onWrite` reports every write with the tables it touched. */
export function createReadCache<T>(
  tables: readonly string[],
  onWrite: (listener: (written: WrittenTables) => void) => void,
): ReadCache<T> {
  const entries = new Map<string, T>();
  // Bumped by every write: a read that saw it change may have returned rows from before the write.
  let generation = 0;
  onWrite((written) => {
    if (written !== "all" && !tables.some((table) => written.has(table))) return;
    generation += 1;
    entries.clear();
  });
  return {
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
}

/** What a cache keeps and where it reads it from; one definition per kind of read. */
export interface ReadCacheKind {
  tables: readonly string[];
}

const caches = new WeakMap<Db, Map<ReadCacheKind, ReadCache<unknown>>>();

/** The cache of this kind on an embedded database, made on first use; undefined on Postgres. */
export function embeddedReadCache<T>(db: Db, kind: ReadCacheKind): ReadCache<T> | undefined {
  const writes = embeddedWrites(db);
  if (!writes) return undefined;
  let ofDb = caches.get(db);
  if (!ofDb) {
    ofDb = new Map();
    caches.set(db, ofDb);
  }
  let cache = ofDb.get(kind);
  if (!cache) {
    cache = createReadCache<unknown>(kind.tables, (listener) => writes.onWrite(listener));
    ofDb.set(kind, cache);
  }
  return cache as ReadCache<T>;
}

/** Reads through the embedded cache of `kind` when there is one, else straight from the database. */
export function cachedRead<Found>(
  db: Db,
  kind: ReadCacheKind,
  key: string,
  read: () => Promise<Found>,
): Promise<Found> {
  const cache = embeddedReadCache<Found>(db, kind);
  if (!cache) return read();
  const hit = cache.recall(key);
  return hit !== undefined ? Promise.resolve(hit) : cache.load(key, read);
}
