/**
 * Word that a review run changed (queued, coalesced, started, finished, its pull request read),
 * for the run screens' event stream (GET /api/reviews/events). In process: it reaches the
 * listeners of this backend only, so it is told after the change is committed. Several backend
 * processes behind one database would need Postgres LISTEN/NOTIFY here instead (docs/decisions/015).
 */
import { EventEmitter } from "node:events";

export interface RunChange {
  orgId: string;
  runId: string;
}

const CHANGE = "change";
const emitter = new EventEmitter();
// One listener per open event stream: many people may watch the Reviews page at once.
emitter.setMaxListeners(0);

export function announceRunChange(change: RunChange): void {
  emitter.emit(CHANGE, change);
}

/** Calls `listener` with every change until the returned function is called. */
export function onRunChange(listener: (change: RunChange) => void): () => void {
  emitter.on(CHANGE, listener);
  return () => emitter.off(CHANGE, listener);
}
