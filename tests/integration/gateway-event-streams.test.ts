/**
 * Review event streams through the real gateway and the real backend: each session and each
 * organisation holds only so many open at once, a stream gives its slot back when the browser
 * leaves, and streams have sockets of their own, so however many are open, other organisations'
 * calls still answer (docs/decisions/032-event-stream-limits.md).
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { EVENT_STREAM_RETRY_AFTER_SECONDS } from "../../shared/constants.ts";
import { ERRORS } from "../../shared/contract/accounts.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { type RunningServer, startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { cookieHeader, createTestGateway, listenForTest } from "../support/gateway.ts";
import { TEST_BACKEND_ENV, testBackends } from "../support/test-backend.ts";

interface OpenedStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's JSON body (a refusal); streams that opened never end. */
  json(): Promise<unknown>;
  close(): void;
}

/** Every stream and gateway a test opened, closed after it: streams first, so gateways stop at once. */
const opened: OpenedStream[] = [];
const gateways: RunningServer[] = [];
afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await Promise.all(gateways.splice(0).map((gateway) => gateway.shutdown()));
});

/** Opens the review event stream as a browser's EventSource does, on a connection of its own. */
async function openStream(port: number, token: string): Promise<OpenedStream> {
  const request = http.get({
    host: "127.0.0.1",
    port,
    path: API_PATHS.reviewEvents,
    headers: { cookie: cookieHeader(token), accept: "text/event-stream" },
    agent: false,
  });
  request.on("error", () => {});
  const [response] = (await once(request, "response")) as [http.IncomingMessage];
  const stream: OpenedStream = {
    status: response.statusCode ?? 0,
    headers: response.headers,
    json: async () => {
      let text = "";
      for await (const chunk of response) text += String(chunk);
      return JSON.parse(text);
    },
    close: () => request.destroy(),
  };
  opened.push(stream);
  return stream;
}

async function openStreams(port: number, token: string, count: number): Promise<number[]> {
  const streams = await Promise.all(Array.from({ length: count }, () => openStream(port, token)));
  return streams.map((stream) => stream.status);
}

async function expectRefused(stream: OpenedStream, message: string) {
  expect(stream.status).toBe(429);
  expect(stream.headers["retry-after"]).toBe(String(EVENT_STREAM_RETRY_AFTER_SECONDS));
  expect(await stream.json()).toEqual({
    error: "Too many requests",
    code: ERROR_CODES.tooManyStreams,
    message,
  });
}

/** A backend on its own port, as the gateway reaches it in production; it runs no reviews. */
function listeningBackend(env: Record<string, string>) {
  const backends = testBackends("pglite");
  let backend: Backend;
  let running: RunningServer;
  beforeAll(async () => {
    backend = await backends.start({ REVIEW_WORKERS: "0", ...env });
    running = await startServer(backend.app, {
      host: "127.0.0.1",
      port: 0,
      shutdownTimeoutMs: 1000,
      logger: createLogger({ name: "backend", level: "silent" }),
    });
  });
  afterAll(async () => {
    await running?.shutdown();
    await backends.stop();
  });
  return {
    backend: () => backend,
    /** A gateway in front of it, listening; `env` sets its configuration. Answers its port. */
    gateway: async (env: Record<string, string> = {}) => {
      const gateway = await listenForTest(
        createTestGateway(running.url, { SESSION_SECRET: TEST_BACKEND_ENV.SESSION_SECRET, ...env }),
        1000,
      );
      gateways.push(gateway);
      return (gateway.server.address() as AddressInfo).port;
    },
  };
}

describe("caps on event streams", () => {
  const setup = listeningBackend({ EVENT_STREAMS_PER_SESSION: "3", EVENT_STREAMS_PER_ORG: "5" });

  it("refuses a session's streams beyond the gateway's cap with 429, Retry-After and the JSON error", async () => {
    const { token } = await signedInAccount(setup.backend(), "gateway-capped");
    // Below the backend's cap of 3: the gateway refuses on its own.
    const port = await setup.gateway({ EVENT_STREAMS_PER_SESSION: "2" });
    expect(await openStreams(port, token, 2)).toEqual([200, 200]);
    await expectRefused(await openStream(port, token), ERRORS.tooManyStreams.session);
  });

  it("refuses them at the backend too, whatever the gateway lets through", async () => {
    const { token } = await signedInAccount(setup.backend(), "backend-capped");
    const port = await setup.gateway({ EVENT_STREAMS_PER_SESSION: "50" });
    expect(await openStreams(port, token, 3)).toEqual([200, 200, 200]);
    await expectRefused(await openStream(port, token), ERRORS.tooManyStreams.session);
  });

  it("caps an organisation across its sessions, and leaves other organisations' streams alone", async () => {
    const account = await signedInAccount(setup.backend(), "org-capped");
    const otherSession = await account.newSession();
    const otherOrg = await signedInAccount(setup.backend(), "org-other");
    const port = await setup.gateway({ EVENT_STREAMS_PER_SESSION: "50" });
    expect(await openStreams(port, account.token, 3)).toEqual([200, 200, 200]);
    expect(await openStreams(port, otherSession, 2)).toEqual([200, 200]);
    await expectRefused(await openStream(port, otherSession), ERRORS.tooManyStreams.organization);
    expect((await openStream(port, otherOrg.token)).status).toBe(200);
  });

  it("gives a stream's slot back when the browser leaves", async () => {
    const { token } = await signedInAccount(setup.backend(), "returning");
    const port = await setup.gateway({ EVENT_STREAMS_PER_SESSION: "3" });
    const streams = await Promise.all([1, 2, 3].map(() => openStream(port, token)));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
    expect((await openStream(port, token)).status).toBe(429);

    streams[0]?.close();
    // The backend hears of the close a moment after the gateway: until then it still counts it.
    await expect.poll(async () => (await openStream(port, token)).status).toBe(200);
    expect((await openStream(port, token)).status).toBe(429);
  });
});

describe("when the event streams take every socket they have", () => {
  const setup = listeningBackend({ EVENT_STREAMS_PER_SESSION: "1000", EVENT_STREAMS_PER_ORG: "1000" });
  /** As many as the gateway's one pool of sockets to the backend held before streams had their own. */
  const SOCKETS = 256;

  it("another organisation's calls still answer at once, and a stream that finds no socket answers 504", async () => {
    const attacker = await signedInAccount(setup.backend(), "hog");
    const victim = await signedInAccount(setup.backend(), "bystander");
    const port = await setup.gateway({
      EVENT_STREAMS_PER_SESSION: "1000",
      PROXY_STREAM_SOCKETS: String(SOCKETS),
      PROXY_SOCKET_WAIT_MS: "500",
    });
    const statuses = await openStreams(port, attacker.token, SOCKETS);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const started = Date.now();
    const [projects, ...beyond] = await Promise.all([
      fetch(`http://127.0.0.1:${port}${API_PATHS.projects}`, {
        headers: { cookie: cookieHeader(victim.token) },
        signal: AbortSignal.timeout(5000),
      }).then((response) => ({ status: response.status, after: Date.now() - started })),
      ...[1, 2, 3, 4].map(() =>
        openStream(port, attacker.token).then(async (stream) => ({
          status: stream.status,
          body: await stream.json(),
          after: Date.now() - started,
        })),
      ),
    ]);
    expect(projects.status).toBe(200);
    expect(projects.after).toBeLessThan(2000);
    for (const stream of beyond) {
      expect(stream.status).toBe(504);
      expect(stream.body).toMatchObject({ code: ERROR_CODES.upstreamTimeout });
      expect(stream.after).toBeLessThan(3000);
    }
  }, 30_000);
});
