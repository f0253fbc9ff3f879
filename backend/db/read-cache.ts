/**
 * Rows the database has answered, kept in memory so that a hot read costs no query of its own.
 *
 * - Embedded PGlite: every query passes its protocol messages through WebAssembly in this process,
 *   and planning a short query costs more than running it (docs/performance.md). Exact, not
 *   time-bound: a write to one of the tables a cache reads from (or to tables that cannot be told)
 *   empties it before the write runs and again once it ran, and a read that overlapped a write is
 *   not kept. Every write to PGlite passes through this process and its Kysely plugin (database.ts,
 *   table-writes.ts).
 * - A Postgres server: other processes write too (more backends, operators), so a process cannot
 *   hear every write. Instead every committed write to a cached table moves its organisation's
 *   counter in `read_versions` (deferred triggers, migration 0022), and the session check reads
 *   that counter in its own statement (auth/sessions.ts): an answer kept under the counter it was
 *   read after is used only while the counter has not moved, so a write through any backend is
 *   seen by the next call on every other (docs/decisions/045-read-versions.md). Without a counter
 *   from the same call, or for tables no trigger covers, every read goes to the database.
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

/**
 * The counter of an organisation's cached rows as one statement read it, before the data: what an
 * answer read after it may be kept under.
 */
export interface ReadVersion {
  orgId: string;
  /** bigint, as text. */
  version: string;
}

/** The tables whose every committed write moves its organisation's read version (migration 0022). */
const VERSIONED_TABLES: ReadonlySet<string> = new Set([
  "projects",
  "subscriptions",
  "organization_settings",
  "repository_settings",
  "repository_rules",
]);

interface Versioned<T> {
  version: bigint;
  value: T;
}

/** A cache whose entries hold for one read version of their organisation. */
export interface VersionedReadCache<T> {
  /** What is kept for `key` under `asOf`, else what `read` finds (kept unless undefined). */
  read(asOf: ReadVersion, key: string, read: () => Promise<T>): Promise<T>;
}

export function createVersionedReadCache<T>(): VersionedReadCache<T> {
  const entries = new Map<string, Versioned<T>>();
  return {
    async read(asOf, key, read) {
      // The organisation is part of the key: a counter speaks for its own organisation's rows only.
      const entryKey = `${asOf.orgId}\n${key}`;
      const version = BigInt(asOf.version);
      const kept = entries.get(entryKey);
      if (kept && kept.version === version) return kept.value;
      // Read after the counter, so at least as new as it: safe to keep under it. A read that lost a
      // race to one made under a newer counter does not replace it.
      const value = await read();
      const latest = entries.get(entryKey);
      if (value !== undefined && !(latest && latest.version > version)) {
        entries.delete(entryKey);
        entries.set(entryKey, { version, value });
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      }
      return value;
    },
  };
}

const versionedCaches = new WeakMap<Db, Map<ReadCacheKind, VersionedReadCache<unknown>>>();

/** The cache of `kind` for `db` in `caches`, made by `create` on first use. */
function cacheOf<Cache>(
  caches: WeakMap<Db, Map<ReadCacheKind, Cache>>,
  db: Db,
  kind: ReadCacheKind,
  create: () => Cache,
): Cache {
  let ofDb = caches.get(db);
  if (!ofDb) {
    ofDb = new Map();
    caches.set(db, ofDb);
  }
  let cache = ofDb.get(kind);
  if (!cache) {
    cache = create();
    ofDb.set(kind, cache);
  }
  return cache;
}

function versionedReadCache<T>(db: Db, kind: ReadCacheKind): VersionedReadCache<T> | undefined {
  if (!kind.tables.every((table) => VERSIONED_TABLES.has(table))) return undefined;
  return cacheOf(versionedCaches, db, kind, () =>
    createVersionedReadCache<unknown>(),
  ) as VersionedReadCache<T>;
}

/** The cache of this kind on an embedded database, made on first use; undefined on Postgres. */
export function embeddedReadCache<T>(db: Db, kind: ReadCacheKind): ReadCache<T> | undefined {
  const writes = embeddedWrites(db);
  if (!writes) return undefined;
  return cacheOf(caches, db, kind, () =>
    createReadCache<unknown>(kind.tables, (listener) => writes.onWrite(listener)),
  ) as ReadCache<T>;
}

/**
 * Reads through the cache of `kind`: on embedded PGlite the exact one; on a Postgres server the one
 * kept by read version, when the call's session check read one (`asOf`) and triggers cover every
 * table of the kind; else straight from the database.
 */
export function cachedRead<Found>(
  db: Db,
  kind: ReadCacheKind,
  key: string,
  read: () => Promise<Found>,
  asOf?: ReadVersion,
): Promise<Found> {
  const cache = embeddedReadCache<Found>(db, kind);
  if (cache) {
    const hit = cache.recall(key);
    return hit !== undefined ? Promise.resolve(hit) : cache.load(key, read);
  }
  const versioned = asOf && versionedReadCache<Found>(db, kind);
  return versioned ? versioned.read(asOf, key, read) : read();
}
