/** The /auth rate limit's shared count: atomic per key and window, on each database. */
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { migrationDatabases } from "../../tests/support/migration-databases.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { countAuthHit } from "./auth-rate-limit.ts";

const { open } = migrationDatabases();
const MINUTE = 60_000;
const AT = Date.UTC(2026, 10, 26, 1, 0, 10);

describe.each(TEST_DATABASE_KINDS)("auth rate-limit counts on %s", (kind) => {
  it("counts each key's hits in its window, concurrent hits each once, and starts again next window", async () => {
    const db = await open(kind);
    await migrateToLatest(db);
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => countAuthHit(db, "auth:203.0.113.7", MINUTE, AT)),
    );
    expect(counts.map((count) => count.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(counts[0]?.resetAt).toBe(Date.UTC(2026, 10, 26, 1, 1, 0));
    expect((await countAuthHit(db, "auth:198.51.100.1", MINUTE, AT)).hits).toBe(1);
    expect((await countAuthHit(db, "auth:203.0.113.7", MINUTE, AT + MINUTE)).hits).toBe(1);
  });
});
