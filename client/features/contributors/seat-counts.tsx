/**
 * The seat counts of /subscriptions, shared by the plan card ("{allocated} / {total} seats
 * allocated") and the contributors table, so a seat toggled in the table shows in the card at once.
 * The loader's counts are the start; a toggle replaces them here (optimistically, then with the
 * backend's answer, or back on failure) without reloading the page's data. A change is kept only
 * against the loaded counts it was made from: once the loader brings new ones, they win.
 */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import type { SeatStatus } from "../../../shared/contract/contributors.ts";

interface Changed {
  from: SeatStatus;
  seats: SeatStatus;
}

interface SeatCountsApi {
  changed: Changed | null;
  change: (changed: Changed) => void;
}

const SeatCountsContext = createContext<SeatCountsApi | null>(null);

export function SeatCountsProvider({ children }: { children: ReactNode }) {
  const [changed, setChanged] = useState<Changed | null>(null);
  const api = useMemo(() => ({ changed, change: setChanged }), [changed]);
  return <SeatCountsContext.Provider value={api}>{children}</SeatCountsContext.Provider>;
}

/**
 * The counts to show: the latest change made from `loaded`, else `loaded`. With `set`, which
 * records a change (outside a provider, in isolated tests, changes are kept locally).
 */
export function useSeatCounts(loaded: SeatStatus): [SeatStatus, (seats: SeatStatus) => void] {
  const shared = useContext(SeatCountsContext);
  const [local, setLocal] = useState<Changed | null>(null);
  const changed = shared ? shared.changed : local;
  const record = shared ? shared.change : setLocal;
  const set = useCallback((seats: SeatStatus) => record({ from: loaded, seats }), [record, loaded]);
  return [changed && changed.from === loaded ? changed.seats : loaded, set];
}
