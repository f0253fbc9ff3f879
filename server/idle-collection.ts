/**
 * One full garbage collection once the gateway has had no request for a few seconds after serving
 * some. V8's own memory reducer waits until its estimate of the allocation rate has decayed, which
 * after a burst of renders took from 10 s to 100 s; meanwhile the heap kept the burst's garbage
 * resident (docs/decisions/050-gateway-memory.md). The collection needs V8's `gc`, which the
 * launcher exposes (--expose-gc, scripts/lib/stack.ts); without it this does nothing.
 */

/** Quiet time after the last request before the collection. */
export const IDLE_COLLECTION_MS = 5_000;
/** How often the quiet is checked: the collection comes 5 to 7.5 s after the last request. */
const CHECKS_PER_IDLE = 2;

export interface IdleCollection {
  /** Counts a request (one increment: it runs on every request). */
  served(): void;
  stop(): void;
}

export function collectWhenIdle(
  collect: (() => unknown) | undefined,
  idleMs = IDLE_COLLECTION_MS,
): IdleCollection {
  if (!collect) return { served() {}, stop() {} };
  let requests = 0;
  let seen = 0;
  let quietChecks = 0;
  /** Whether requests came since the last collection: an idle gateway is collected once, not every few seconds. */
  let dirty = false;
  const timer = setInterval(() => {
    if (requests !== seen) {
      seen = requests;
      quietChecks = 0;
      dirty = true;
      return;
    }
    quietChecks += 1;
    if (dirty && quietChecks >= CHECKS_PER_IDLE) {
      dirty = false;
      collect();
    }
  }, idleMs / CHECKS_PER_IDLE);
  timer.unref();
  return {
    served() {
      requests += 1;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
