/**
 * Counts what is open per key, up to a limit: the event streams of a session or an organisation, in
 * the gateway and in the backend (docs/decisions/032-event-stream-limits.md). In memory: each
 * process counts its own.
 */
export interface SlotLimit {
  /** Takes a slot for `key`: answers the function that gives it back (once), or undefined when none is left. */
  take(key: string): (() => void) | undefined;
  /** Slots of `key` taken now. */
  taken(key: string): number;
}

export function slotLimit(limit: number): SlotLimit {
  const taken = new Map<string, number>();
  return {
    take(key) {
      const count = taken.get(key) ?? 0;
      if (count >= limit) return undefined;
      taken.set(key, count + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (taken.get(key) ?? 1) - 1;
        // A key with nothing open is forgotten, so the map holds only keys with open slots.
        if (left > 0) taken.set(key, left);
        else taken.delete(key);
      };
    },
    taken: (key) => taken.get(key) ?? 0,
  };
}
