import { EventEmitter } from "node:events";
import type { Response } from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { upstreamPool } from "./upstream-pool.ts";

/** Enough of a response for the pool: its close, and whether it is already gone. */
function response() {
  const res = new EventEmitter() as EventEmitter & { destroyed: boolean };
  res.destroyed = false;
  return {
    res: res as unknown as Response,
    close() {
      res.destroyed = true;
      res.emit("close");
    },
  };
}

/** Admits a request to `pool`, recording what became of it. */
function request(pool: ReturnType<typeof upstreamPool>) {
  const { res, close } = response();
  const outcome = { sent: false, gaveUp: false };
  pool.admit(
    res,
    () => {
      outcome.sent = true;
    },
    () => {
      outcome.gaveUp = true;
    },
  );
  return { outcome, close };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("upstreamPool", () => {
  it("sends as many requests at once as it has sockets, the rest in order as sockets come free", () => {
    const pool = upstreamPool("http://127.0.0.1:1", 2, 1000);
    const [first, second, third, fourth] = [1, 2, 3, 4].map(() => request(pool));
    expect([first, second, third, fourth].map((r) => r?.outcome.sent)).toEqual([true, true, false, false]);
    first?.close();
    expect(third?.outcome.sent).toBe(true);
    expect(fourth?.outcome.sent).toBe(false);
    second?.close();
    expect(fourth?.outcome.sent).toBe(true);
  });

  it("gives up on a request that waited its time, and never sends it", () => {
    const pool = upstreamPool("http://127.0.0.1:1", 1, 1000);
    const holder = request(pool);
    const waiting = request(pool);
    vi.advanceTimersByTime(999);
    expect(waiting.outcome).toEqual({ sent: false, gaveUp: false });
    vi.advanceTimersByTime(1);
    expect(waiting.outcome).toEqual({ sent: false, gaveUp: true });
    holder.close();
    expect(waiting.outcome.sent).toBe(false);
    expect(request(pool).outcome.sent).toBe(true);
  });

  it("drops a request whose browser left while it waited, and one that left before it came", () => {
    const pool = upstreamPool("http://127.0.0.1:1", 1, 1000);
    const holder = request(pool);
    const left = request(pool);
    const next = request(pool);
    left.close();
    holder.close();
    expect(left.outcome).toEqual({ sent: false, gaveUp: false });
    expect(next.outcome.sent).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(left.outcome.gaveUp).toBe(false);

    next.close();
    const gone = response();
    gone.close();
    pool.admit(
      gone.res,
      () => expect.unreachable("sent for a browser that left"),
      () => {},
    );
    expect(request(pool).outcome.sent).toBe(true);
  });
});
