import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HostLookup } from "./outbound-address.ts";
import { OutboundAddressError } from "./outbound-address.ts";
import { pinnedFetch } from "./pinned-fetch.ts";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    });
    if (request.url === "/moved") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      response.end();
      return;
    }
    if (request.url === "/slow") return; // never answers
    response.writeHead(200, { "content-type": "application/json", "x-served-by": "fake" });
    response.end(JSON.stringify({ echoed: request.url }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});
beforeEach(() => {
  received.length = 0;
});

const LOCAL = { allowPrivate: true };

describe("pinnedFetch", () => {
  it("sends the method, headers and body, and answers the status, headers and body", async () => {
    const fetch = pinnedFetch(LOCAL);
    const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: "m" }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get("x-served-by")).toBe("fake");
    expect(await response.json()).toEqual({ echoed: "/v1/chat/completions" });
    expect(received).toMatchObject([
      {
        method: "POST",
        url: "/v1/chat/completions",
        headers: { authorization: "Bearer sk-test", "content-length": "13" },
        body: '{"model":"m"}',
      },
    ]);
  });

  it("connects to the address it checked, even when the name resolves elsewhere a moment later (DNS rebinding)", async () => {
    let lookups = 0;
    // The first answer passes the check; any later one would be the cloud's metadata service.
    const rebinding: HostLookup = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? "127.0.0.1" : "169.254.169.254", family: 4 }];
    };
    const fetch = pinnedFetch(LOCAL, rebinding);

    const response = await fetch(`http://models.rebind.test:${port}/v1/models`);

    expect(response.status).toBe(200);
    expect(received.map((request) => [request.url, request.headers.host])).toEqual([
      ["/v1/models", `models.rebind.test:${port}`],
    ]);
    expect(lookups).toBe(1);
    // The next call resolves again, and that answer is refused before any connection.
    await expect(fetch(`http://models.rebind.test:${port}/v1/models`)).rejects.toBeInstanceOf(
      OutboundAddressError,
    );
    expect(received).toHaveLength(1);
  });

  it("answers a redirect as it is, never following it", async () => {
    const response = await pinnedFetch(LOCAL)(`http://127.0.0.1:${port}/moved`, {
      method: "POST",
      body: "{}",
    });

    expect(response.status).toBe(302);
    expect(received.map((request) => request.url)).toEqual(["/moved"]);
  });

  it("refuses a refused address before connecting, typed or resolved", async () => {
    const fetch = pinnedFetch({ allowPrivate: false });
    for (const url of [
      `http://127.0.0.1:${port}/v1`,
      `http://localhost:${port}/v1`,
      `http://[::ffff:7f00:1]:${port}/v1`,
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      await expect(fetch(url), url).rejects.toBeInstanceOf(OutboundAddressError);
    }
    expect(received).toEqual([]);
  });

  it("calls http and https only", async () => {
    await expect(pinnedFetch(LOCAL)("file:///etc/passwd")).rejects.toThrow(/http and https only/);
  });

  it("stops when the signal aborts", async () => {
    const started = performance.now();
    await expect(
      pinnedFetch(LOCAL)(`http://127.0.0.1:${port}/slow`, { signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ name: expect.stringMatching(/AbortError|TimeoutError/) });
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
