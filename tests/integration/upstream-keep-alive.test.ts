/**
 * The gateway's sockets to the backend go idle-closed by the gateway, long before the backend
 * would close them: a call, a write above all, must never go out on a socket the backend is
 * closing (shared/node/stale-socket.ts).
 */
import { once } from "node:events";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { upstreamPool } from "../../server/upstream-pool.ts";
import { startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { BACKEND_KEEP_ALIVE_MS, IDLE_UPSTREAM_SOCKET_MS } from "../../shared/node/stale-socket.ts";

const freeSockets = (agent: http.Agent) => Object.values(agent.freeSockets).flat().length;

describe("keep-alive between the gateway and the backend", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it("has the gateway drop an idle socket long before the backend's keep-alive ends", async () => {
    const running = await startServer((_req, res) => res.end("ok"), {
      host: "127.0.0.1",
      port: 0,
      shutdownTimeoutMs: 1000,
      logger: createLogger({ name: "test", level: "silent" }),
      keepAliveTimeoutMs: BACKEND_KEEP_ALIVE_MS,
    });
    stop = running.shutdown;
    const { agent } = upstreamPool(running.url, 4, 1000);

    const call = http.get(`${running.url}/`, { agent });
    const [answer] = (await once(call, "response")) as [http.IncomingMessage];
    answer.resume();
    await once(answer, "end");
    expect(answer.headers["keep-alive"]).toBe(`timeout=${BACKEND_KEEP_ALIVE_MS / 1000}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(freeSockets(agent)).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, IDLE_UPSTREAM_SOCKET_MS + 500));
    expect(freeSockets(agent)).toBe(0);
    expect(IDLE_UPSTREAM_SOCKET_MS).toBeLessThan(BACKEND_KEEP_ALIVE_MS / 2);
  });
});
