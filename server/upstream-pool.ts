/**
 * A pool of sockets to the backend that keeps no request waiting for one longer than `waitMs`.
 * Node's agent queues a request that finds every socket busy for as long as that takes, and the
 * proxy's timeout starts only once the request has a socket; so the pool admits requests itself: at
 * most as many as it has sockets, the rest in order of arrival as sockets come free, and it gives up
 * on one that waited `waitMs` (docs/decisions/032-event-stream-limits.md).
 */

import type { ServerResponse } from "node:http";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { UPSTREAM_AGENT_OPTIONS } from "../shared/node/stale-socket.ts";

export interface UpstreamPool {
  /** What the proxy sends the pool's requests with. */
  readonly agent: HttpAgent;
  /**
   * Calls `send` once a socket is free for the request `res` answers, which keeps it until `res`
   * closes; or `giveUp` if none came free within the wait. A browser that leaves while its request
   * waits leaves the queue too.
   */
  admit(res: ServerResponse, send: () => void, giveUp: () => void): void;
}

export function upstreamPool(backendUrl: string, sockets: number, waitMs: number): UpstreamPool {
  // Reused connections: without an agent the proxy would open one per request.
  const agentOptions = { ...UPSTREAM_AGENT_OPTIONS, maxSockets: sockets };
  const agent = backendUrl.startsWith("https:") ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  let inUse = 0;
  /** Admits a waiting request; a Set keeps the order they came in. */
  const waiting = new Set<() => void>();

  function use(res: ServerResponse, send: () => void): void {
    inUse++;
    res.once("close", () => {
      inUse--;
      const [next] = waiting;
      next?.();
    });
    send();
  }

  return {
    agent,
    admit(res, send, giveUp) {
      // Its close has passed: nothing would give the socket back.
      if (res.destroyed) return;
      if (inUse < sockets) {
        use(res, send);
        return;
      }
      const settle = () => {
        clearTimeout(timer);
        waiting.delete(admitted);
        res.off("close", settle);
      };
      const admitted = () => {
        settle();
        use(res, send);
      };
      const timer = setTimeout(() => {
        settle();
        giveUp();
      }, waitMs);
      waiting.add(admitted);
      res.once("close", settle);
    },
  };
}
