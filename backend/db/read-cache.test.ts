/** The bookkeeping of the embedded read cache, with the writes reported by hand. */
import { describe, expect, it } from "vitest";
import { createReadCache } from "./read-cache.ts";
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
