import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectWhenIdle, IDLE_COLLECTION_MS } from "./idle-collection.ts";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Requests every 100 ms for `ms`. */
function traffic(idle: ReturnType<typeof collectWhenIdle>, ms: number) {
  for (let elapsed = 0; elapsed < ms; elapsed += 100) {
    idle.served();
    vi.advanceTimersByTime(100);
  }
}

describe("collectWhenIdle", () => {
  it("collects once within 7.5 s of the last request, never while requests keep coming", () => {
    const collect = vi.fn();
    const idle = collectWhenIdle(collect);
    traffic(idle, 30_000);
    expect(collect).not.toHaveBeenCalled();

    vi.advanceTimersByTime(IDLE_COLLECTION_MS * 1.5);
    expect(collect).toHaveBeenCalledTimes(1);
    // Still idle: nothing more to give back.
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.stop();
  });

  it("waits for the quiet even after a short pause in the traffic", () => {
    const collect = vi.fn();
    const idle = collectWhenIdle(collect);
    traffic(idle, 10_000);
    vi.advanceTimersByTime(IDLE_COLLECTION_MS / 2 - 100);
    traffic(idle, 10_000);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_COLLECTION_MS * 1.5);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.stop();
  });

  it("collects again after the next burst", () => {
    const collect = vi.fn();
    const idle = collectWhenIdle(collect);
    traffic(idle, 5_000);
    vi.advanceTimersByTime(IDLE_COLLECTION_MS * 1.5);
    traffic(idle, 5_000);
    vi.advanceTimersByTime(IDLE_COLLECTION_MS * 1.5);
    expect(collect).toHaveBeenCalledTimes(2);
    idle.stop();
  });

  it("never collects a gateway that served nothing", () => {
    const collect = vi.fn();
    const idle = collectWhenIdle(collect);
    vi.advanceTimersByTime(60_000);
    expect(collect).not.toHaveBeenCalled();
    idle.stop();
  });

  it("does nothing where V8's gc is not exposed", () => {
    const idle = collectWhenIdle(undefined);
    idle.served();
    vi.advanceTimersByTime(60_000);
    idle.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
