/**
 * Kept-alive sockets between the gateway and the backend, and a call lost to one that the server
 * closed as idle at the moment the call went out on it. The gateway drops its idle sockets long
 * before the backend would close them, which makes that rare; a safe method that meets it anyway
 * (a gateway stalled past the margin) may go again, once, on a new socket, since the server never
 * read the call: the remedy Node's http documentation gives. A write never goes twice.
 */
import type { ClientRequest } from "node:http";

/**
 * How long the backend keeps an idle connection open. Node's default (5 s) left the gateway's
 * agents, which drop a socket a second before the server's hint, a margin of two seconds; a busy
 * gateway that took a new call off a socket later than that lost it, and a write cannot go again.
 */
export const BACKEND_KEEP_ALIVE_MS = 30_000;
/** How long the gateway keeps an idle socket to the backend: far less than the backend keeps it. */
export const IDLE_UPSTREAM_SOCKET_MS = 4_000;

/** The options of every agent the gateway calls the backend with (the proxy's pools, the loaders'). */
export const UPSTREAM_AGENT_OPTIONS = { keepAlive: true, timeout: IDLE_UPSTREAM_SOCKET_MS } as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const CLOSED_UNDER_IT = new Set(["ECONNRESET", "EPIPE"]);

/** Whether `request`, unanswered, failed with `error` only because its reused socket had closed. */
export function lostToStaleSocket(request: ClientRequest, error: NodeJS.ErrnoException): boolean {
  return (
    request.reusedSocket &&
    SAFE_METHODS.has(request.method) &&
    error.code !== undefined &&
    CLOSED_UNDER_IT.has(error.code)
  );
}
