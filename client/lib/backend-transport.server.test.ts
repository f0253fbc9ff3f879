import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleSocketUpstream } from "../../tests/support/stale-socket-upstream.ts";
import { nodeHttpFetch } from "./backend-transport.server";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  socket: number;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const sockets = new WeakMap<object, number>();
let socketCount = 0;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (!sockets.has(req.socket)) sockets.set(req.socket, ++socketCount);
    seen.push({
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body,
      socket: sockets.get(req.socket) ?? 0,
    });
    if (req.url === "/empty") return void res.writeHead(204).end();
    if (req.url === "/slow") return void setTimeout(() => res.end("{}"), 5_000).unref();
    if (req.url === "/missing") {
      res.writeHead(404, "Not Found", { "content-type": "application/json" });
      return void res.end(JSON.stringify({ error: "Not found" }));
    }
    res.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
    res.end(JSON.stringify({ answer: "é and ü", path: req.url }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the loaders' transport to the backend", () => {
  it("sends the method, headers and body, and answers a Response with status, headers and JSON", async () => {
    const send = nodeHttpFetch();
    const response = await send(`${base}/api/things?page=2`, {
      method: "POST",
      headers: { authorization: "Bearer token-1", "content-type": "application/json" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ answer: "é and ü", path: "/api/things?page=2" });
    expect(seen.at(-1)).toMatchObject({
      method: "POST",
      url: "/api/things?page=2",
      body: '{"name":"x"}',
      headers: { authorization: "Bearer token-1" },
    });
  });

  it("answers an error status as a Response, and one without a body", async () => {
    const send = nodeHttpFetch();
    const missing = await send(`${base}/missing`);
    expect([missing.status, missing.ok, missing.statusText]).toEqual([404, false, "Not Found"]);
    expect(await missing.json()).toEqual({ error: "Not found" });
    const empty = await send(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("keeps its connection for the next call", async () => {
    const send = nodeHttpFetch();
    for (let i = 0; i < 3; i++) await (await send(`${base}/again-${i}`)).json();
    const [first, ...rest] = seen.slice(-3).map((call) => call.socket);
    expect(rest).toEqual([first, first]);
  });

  it("gives up when the signal aborts, and refuses an unreachable backend", async () => {
    const send = nodeHttpFetch();
    const controller = new AbortController();
    const call = send(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    await expect(send("http://127.0.0.1:1/nothing-listens")).rejects.toThrow();
  });

  it("sends a read again on a new socket when the kept-alive one closed under it, and a write never", async () => {
    const upstream = await staleSocketUpstream();
    try {
      const send = nodeHttpFetch();
      await (await send(`${upstream.url}/first`)).json();
      expect((await send(`${upstream.url}/second`)).status).toBe(200);
      expect(upstream.requests.map(({ path, connection }) => `${path}@${connection}`)).toEqual([
        "/first@1",
        "/second@1",
        "/second@2",
      ]);
      // The new socket is kept alive in turn; a write on it is not sent twice.
      const write = send(`${upstream.url}/write`, { method: "POST", body: "{}" });
      await expect(write).rejects.toMatchObject({ code: "ECONNRESET" });
      expect(upstream.requests.filter(({ path }) => path === "/write")).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  });
});
