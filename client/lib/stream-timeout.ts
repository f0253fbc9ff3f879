/**
 * How long a server render may stream data still pending (entry.server.tsx's `streamTimeout`), in
 * one place because the loaders' backend calls are timed to end before it (backend.server.ts).
 */
export const STREAM_TIMEOUT_MS = 5_000;
