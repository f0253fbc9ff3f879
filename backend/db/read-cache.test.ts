/** The bookkeeping of the embedded read cache, with the writes reported by hand. */
import { describe, expect, it } from "vitest";
import { createReadCache, createVersionedReadCache } from "./read-cache.ts";
import type { WrittenTables } from "./table-writes.ts";

describe("the embedded read cache's bookkeeping", () => {
  function cacheWithWrites() {
    let write: (tables: WrittenTables) => void = () => {};
    const cache = createReadCache<string>(["sessions", "users"], (listener) => {
      write = listener;
    });
    return { cache, write: (tables: WrittenTables) => write(tables) };
  }

  it("keeps what it read, and forgets everything on a write to one of its tables or to unknown tables", async () => {
    const { cache, write } = cacheWithWrites();
    await cache.load("a", async () => "row a");
    expect(cache.recall("a")).toBe("row a");
    write(new Set(["projects"]));
    expect(cache.recall("a")).toBe("row a");
    write(new Set(["users"]));
    expect(cache.recall("a")).toBeUndefined();
    await cache.load("a", async () => "row a");
    write("all");
    expect(cache.recall("a")).toBeUndefined();
  });

  it("does not keep a read that a write overlapped, nor a session that was not found", async () => {
    const { cache, write } = cacheWithWrites();
    let finishRead: (row: string) => void = () => {};
    const loading = cache.load("a", () => new Promise<string>((resolve) => (finishRead = resolve)));
    write(new Set(["sessions"]));
    finishRead("row read before the write");
    expect(await loading).toBe("row read before the write");
    expect(cache.recall("a")).toBeUndefined();
    await cache.load("b", async () => undefined);
    expect(cache.recall("b")).toBeUndefined();
  });
});

describe("the read cache kept by read version (Postgres)", () => {
  const at = (version: number, orgId = "org-a") => ({ orgId, version: String(version) });

  it("answers from memory under the version it was read after, and reads again under another", async () => {
    const cache = createVersionedReadCache<string>();
    let reads = 0;
    const read = async () => `read ${++reads}`;
    expect(await cache.read(at(1), "k", read)).toBe("read 1");
    expect(await cache.read(at(1), "k", read)).toBe("read 1");
    expect(await cache.read(at(2), "k", read)).toBe("read 2");
    expect(await cache.read(at(2), "k", read)).toBe("read 2");
    // Another organisation's counter says nothing about this one's rows.
    expect(await cache.read(at(2, "org-b"), "k", read)).toBe("read 3");
    expect(reads).toBe(3);
  });

  it("does not let a read under an older version replace one under a newer, nor keep what was not found", async () => {
    const cache = createVersionedReadCache<string | undefined>();
    let finishOld: (row: string) => void = () => {};
    const old = cache.read(at(1), "k", () => new Promise<string>((resolve) => (finishOld = resolve)));
    expect(await cache.read(at(2), "k", async () => "newer")).toBe("newer");
    finishOld("older");
    expect(await old).toBe("older");
    expect(await cache.read(at(2), "k", async () => "read again")).toBe("newer");
    expect(await cache.read(at(3), "gone", async () => undefined)).toBeUndefined();
    expect(await cache.read(at(3), "gone", async () => "found")).toBe("found");
  });
});
