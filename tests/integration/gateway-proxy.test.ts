import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import type { FakeBackend } from "../support/fake-backend.ts";
import { apiCallsOf, fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, listenForTest } from "../support/gateway.ts";
import { staleSocketUpstream } from "../support/stale-socket-upstream.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
let token: string;
beforeAll(async () => {
  backend = fakeBackend();
  token = await backend.mint();
});

const upstreamCall = (path: string) => backend.calls.find((call) => call.path === path);
const apiCalls = () => apiCallsOf(backend);

describe("forwarding to the backend", () => {
  it("keeps method, path and query, and swaps browser credentials for the bearer token", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .get("/api/projects?integrationType=git&integrationName=github")
      .set("Cookie", `${cookieHeader(token)}; other=1`)
      .set("Authorization", "Bearer client-supplied")
      .set("X-Forwarded-For", "6.6.6.6")
      .set("X-Forwarded-Host", "evil.example");
    expect(response.status).toBe(200);
    const call = upstreamCall("/api/projects");
    expect(call?.method).toBe("GET");
    expect(call?.query).toBe("?integrationType=git&integrationName=github");
    expect(call?.headers.authorization).toBe(`Bearer ${token}`);
    expect(call?.headers.cookie).toBeUndefined();
    expect(call?.headers["x-forwarded-for"]).not.toContain("6.6.6.6");
    expect(call?.headers["x-forwarded-host"]).not.toBe("evil.example");
    expect(call?.headers["x-forwarded-proto"]).toBe("http");
    expect(call?.headers["x-request-id"]).toBe(response.headers["x-request-id"]);
    expect(call?.headers["x-request-id"]).toMatch(/^[\w-]{8,}$/);
  });

  it("keeps a caller's X-Request-Id only behind a trusted proxy, and logs the call under its id", async () => {
    const incoming = "lb-request-0123456789";
    for (const [trustProxy, kept] of [
      ["1", true],
      ["0", false],
    ] as const) {
      const { app, logs } = createTestGateway(backend.url, { TRUST_PROXY: trustProxy });
      const response = await request(app)
        .get("/api/projects")
        .set("Cookie", cookieHeader(token))
        .set("X-Request-Id", incoming);
      const id = response.headers["x-request-id"];
      expect(id === incoming).toBe(kept);
      const forwarded = backend.calls.filter((call) => call.path === "/api/projects").at(-1);
      expect(forwarded?.headers["x-request-id"]).toBe(id);
      const line = logs.lines.map((raw) => JSON.parse(raw)).find((entry) => entry.req?.id === id);
      expect(line).toMatchObject({ req: { method: "GET", path: "/api/projects" }, res: { statusCode: 200 } });
      expect(logs.text()).not.toContain(token);
    }
  });

  it.each(["post", "put", "patch", "delete"] as const)(
    "passes a JSON %s body through intact",
    async (method) => {
      const { app } = createTestGateway(backend.url);
      const body = { value: { auto_review: true, nested: ["a", 1, null] }, repositoryId: "r-1", text: "é ✓" };
      const response = await request(app)
        [method]("/api/settings/review?integrationKey=k")
        .set("Cookie", cookieHeader(token))
        .send(body);
      expect(response.status).toBe(200);
      const call = upstreamCall("/api/settings/review");
      expect(call?.method).toBe(method.toUpperCase());
      expect(call?.query).toBe("?integrationKey=k");
      expect(JSON.parse(call?.body ?? "")).toEqual(body);
      expect(call?.headers["content-type"]).toContain("application/json");
    },
  );

  it("does not send a bearer token on /auth calls and drops the client's Authorization", async () => {
    const { app } = createTestGateway(backend.url);
    await request(app)
      .post("/auth/forgot-password")
      .set("Cookie", cookieHeader(token))
      .set("Authorization", "Bearer client-supplied")
      .send({ email: "a@b.co" });
    const call = upstreamCall("/auth/forgot-password");
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.headers.cookie).toBeUndefined();
    expect(JSON.parse(call?.body ?? "")).toEqual({ email: "a@b.co" });
  });

  it("strips Set-Cookie coming back from the backend", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/api/set-cookie").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(200);
    expect(response.headers["set-cookie"]).toBeUndefined();
  });
});

describe("calls without a session", () => {
  it("answers 401 for /api without touching the backend", async () => {
    const { app } = createTestGateway(backend.url);
    for (const path of ["/api/projects", "/api/subscription", "/api/seats/assign"]) {
      const response = await request(app).get(path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: "No authentication token found" });
    }
    expect(apiCalls()).toHaveLength(0);
  });

  it("lets the one public /api call through", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/api/subscription/stripe/validate-session/cs_test_123");
    expect(response.status).toBe(200);
    expect(
      upstreamCall("/api/subscription/stripe/validate-session/cs_test_123")?.headers.authorization,
    ).toBeUndefined();
  });
});

describe("the backend's internal calls", () => {
  it("are never forwarded, signed in or not: a browser cannot count hits on another address's /auth limit", async () => {
    const { app } = createTestGateway(backend.url);
    const internalCalls = () => backend.calls.filter((call) => call.path.startsWith("/internal/")).length;
    const before = internalCalls();
    for (const cookie of [undefined, cookieHeader(token)]) {
      const call = request(app)
        .post(API_PATHS.authRateLimitHit)
        .send({ key: "auth:203.0.113.7", windowMs: 60_000 });
      const response = await (cookie ? call.set("Cookie", cookie) : call);
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
    expect(internalCalls()).toBe(before);
  });
});

describe("backend failures", () => {
  it("answers 502 in the documented shape when the backend refuses connections, and keeps serving", async () => {
    const { app } = createTestGateway("http://127.0.0.1:9", {
      SESSION_JWKS_URL: `${backend.url}/.well-known/jwks.json`,
    });
    const response = await request(app).get("/api/projects").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      error: "Bad gateway",
      code: "UPSTREAM_UNAVAILABLE",
      message: "Backend service unavailable. Please try again.",
    });
    expect(response.text).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    expect((await request(app).get("/healthz")).status).toBe(200);
  });

  it("sends a read again on a new socket when the kept-alive one closed under it, and a write never", async () => {
    const upstream = await staleSocketUpstream();
    try {
      const { app } = createTestGateway(upstream.url, {
        SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}`,
      });
      for (let i = 0; i < 2; i++)
        expect((await request(app).get("/api/projects").set("Cookie", cookieHeader(token))).status).toBe(200);
      expect(upstream.requests.map(({ connection }) => connection)).toEqual([1, 1, 2]);
      const write = await request(app)
        .post("/api/contributors/add")
        .set("Cookie", cookieHeader(token))
        .send({ platform_id: "octocat", platform_type: "github" });
      expect(write.status).toBe(502);
      expect(upstream.requests.filter(({ method }) => method === "POST")).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  });

  it("answers 504 when the backend is slower than the timeout", async () => {
    const { app } = createTestGateway(backend.url, { PROXY_TIMEOUT_MS: "200" });
    const started = Date.now();
    const response = await request(app).get("/api/slow?ms=3000").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(504);
    expect(response.body).toEqual({
      error: "Gateway timeout",
      code: "UPSTREAM_TIMEOUT",
      message: "Backend service unavailable. Please try again.",
    });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("answers 504 when no socket to the backend comes free in time, and never sends that call later", async () => {
    const running = await listenForTest(
      createTestGateway(backend.url, { PROXY_SOCKETS: "1", PROXY_SOCKET_WAIT_MS: "300" }),
    );
    const { port } = running.server.address() as AddressInfo;
    const call = () =>
      fetch(`http://127.0.0.1:${port}/api/projects`, {
        headers: { cookie: cookieHeader(token) },
        signal: AbortSignal.timeout(5000),
      });
    // The one socket is busy for as long as this call is open.
    const holder = http.get({
      port,
      host: "127.0.0.1",
      path: "/api/slow?ms=10000",
      headers: { cookie: cookieHeader(token) },
    });
    holder.on("error", () => {});
    try {
      // The holder itself, not the gateway's session check that may go first, holds the socket.
      await expect.poll(() => backend.calls.some((recorded) => recorded.path === "/api/slow")).toBe(true);
      const started = Date.now();
      const waited = await call();
      expect(waited.status).toBe(504);
      expect(await waited.json()).toEqual({
        error: "Gateway timeout",
        code: "UPSTREAM_TIMEOUT",
        message: "Backend service unavailable. Please try again.",
      });
      expect(Date.now() - started).toBeLessThan(2000);

      holder.destroy();
      await expect.poll(() => backend.openRequests(), { timeout: 2000 }).toBe(0);
      expect((await call()).status).toBe(200);
      // Only the call made after the socket came free reached the backend.
      expect(apiCalls().filter((recorded) => recorded.path === "/api/projects")).toHaveLength(1);
    } finally {
      holder.destroy();
      await running.shutdown();
    }
  });

  it("cancels the upstream request when the browser aborts", async () => {
    const running = await listenForTest(createTestGateway(backend.url));
    const { port } = running.server.address() as AddressInfo;
    const client = http.get({
      port,
      host: "127.0.0.1",
      path: "/api/slow?ms=5000",
      headers: { cookie: cookieHeader(token) },
    });
    client.on("error", () => {});
    await expect.poll(() => backend.openRequests()).toBe(1);
    client.destroy();
    await expect.poll(() => backend.openRequests(), { timeout: 2000 }).toBe(0);
    await running.shutdown();
  });
});

describe("compression", () => {
  it("compresses a proxied JSON answer over 1 kB for a client that accepts it, asking the backend for it plain", async () => {
    const { app } = createTestGateway(backend.url);
    // The fake backend echoes the query: this answer is well above the compression threshold.
    const large = `/api/echo?pad=${"x".repeat(4000)}`;
    const compressed = await request(app)
      .get(large)
      .set("Cookie", cookieHeader(token))
      .set("Accept-Encoding", "gzip, deflate, br");
    expect(compressed.status).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(JSON.stringify(compressed.body).length).toBeGreaterThan(4000);
    expect(upstreamCall("/api/echo")?.headers["accept-encoding"]).toBe("identity");

    const gzipped = await request(app)
      .get(large)
      .set("Cookie", cookieHeader(token))
      .set("Accept-Encoding", "gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
  });

  it("passes a proxied answer through plain to a client that accepts no encoding, and a small one to any", async () => {
    const { app } = createTestGateway(backend.url);
    const plain = await request(app)
      .get(`/api/echo?pad=${"x".repeat(4000)}`)
      .set("Cookie", cookieHeader(token))
      .set("Accept-Encoding", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text.length).toBeGreaterThan(4000);

    const small = await request(app)
      .get("/api/echo?pad=x")
      .set("Cookie", cookieHeader(token))
      .set("Accept-Encoding", "gzip, deflate, br");
    expect(small.headers["content-encoding"]).toBeUndefined();
  });
});

describe("the review events stream", () => {
  it("passes an event through as it is sent, uncompressed, while the stream stays open", async () => {
    const running = await listenForTest(createTestGateway(backend.url));
    const { port } = running.server.address() as AddressInfo;
    const client = http.get({
      port,
      host: "127.0.0.1",
      path: API_PATHS.reviewEvents,
      headers: { cookie: cookieHeader(token), "accept-encoding": "gzip, deflate, br" },
    });
    client.on("error", () => {});
    const [response] = (await once(client, "response")) as [http.IncomingMessage];
    expect(response.headers["content-type"]).toContain("text/event-stream");
    expect(response.headers["content-encoding"]).toBeUndefined();
    let text = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      text += chunk;
    });
    // The backend never ends this stream: the event must arrive on its own.
    await expect.poll(() => text, { timeout: 3000 }).toContain('event: run\ndata: {"id":"run-1"}\n\n');
    expect(response.complete).toBe(false);
    client.destroy();
    await running.shutdown();
  });
});

describe("request body limit", () => {
  it("answers 413 before the backend sees an oversized body", async () => {
    const { app } = createTestGateway(backend.url, { BODY_LIMIT_BYTES: "1024" });
    const response = await request(app)
      .post("/api/contributors/add")
      .set("Cookie", cookieHeader(token))
      .send({ platform_id: "x".repeat(2000), platform_type: "github" });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(apiCalls()).toHaveLength(0);
  });

  it("also for a chunked body without Content-Length", async () => {
    const running = await listenForTest(createTestGateway(backend.url, { BODY_LIMIT_BYTES: "1024" }));
    const { port } = running.server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: "127.0.0.1",
          path: "/api/contributors/add",
          method: "POST",
          headers: {
            cookie: cookieHeader(token),
            "content-type": "application/json",
            "transfer-encoding": "chunked",
          },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on("error", reject);
      for (let i = 0; i < 4; i++) req.write("x".repeat(512));
      req.end();
    });
    await running.shutdown();
    expect(status).toBe(413);
    expect(apiCalls()).toHaveLength(0);
  });

  it("lets a body within the limit through", async () => {
    const { app } = createTestGateway(backend.url, { BODY_LIMIT_BYTES: "1024" });
    const response = await request(app)
      .post("/api/contributors/add")
      .set("Cookie", cookieHeader(token))
      .send({ platform_id: "octocat", platform_type: "github" });
    expect(response.status).toBe(200);
  });
});

/** Posts bytes as they are (supertest would serialise a Buffer sent as JSON). */
async function postEncoded(
  overrides: Record<string, string>,
  path: string,
  encoding: string,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  const running = await listenForTest(createTestGateway(backend.url, overrides));
  const { port } = running.server.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: "127.0.0.1",
          path,
          method: "POST",
          headers: {
            cookie: cookieHeader(token),
            "content-type": "application/json",
            "content-encoding": encoding,
            "content-length": body.length,
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  } finally {
    await running.shutdown();
  }
}

describe("encoded request bodies", () => {
  const json = JSON.stringify({ platform_id: "octocat", platform_type: "github" });

  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ] as const)("decompresses a %s body and sends it upstream plain", async (encoding, compress) => {
    for (const path of ["/api/contributors/add", "/auth/forgot-password"]) {
      const response = await postEncoded({}, path, encoding, compress(Buffer.from(json)));
      expect(response.status).toBe(200);
      const call = upstreamCall(path);
      expect(call?.body).toBe(json);
      expect(call?.headers["content-encoding"]).toBeUndefined();
      expect(call?.headers["content-length"]).toBe(String(json.length));
    }
  });

  it("refuses an unknown encoding with 415, never a 5xx", async () => {
    for (const path of ["/api/contributors/add", "/auth/forgot-password"]) {
      const response = await postEncoded({}, path, "snappy", Buffer.from(json));
      expect(response.status).toBe(415);
      expect(JSON.parse(response.body).code).toBe(ERROR_CODES.unsupportedEncoding);
    }
    expect(apiCalls()).toHaveLength(0);
  });

  it("refuses a body that is not what its encoding says with 400, and a bomb over the limit with 413", async () => {
    const limit = { BODY_LIMIT_BYTES: "1024" };
    expect((await postEncoded(limit, "/api/contributors/add", "gzip", Buffer.from(json))).status).toBe(400);
    const bomb = gzipSync(Buffer.alloc(1_000_000, 32));
    expect(bomb.length).toBeLessThan(1024 * 2);
    expect((await postEncoded(limit, "/api/contributors/add", "gzip", bomb)).status).toBe(413);
    expect(apiCalls()).toHaveLength(0);
  });
});

/** An upstream that records each request head exactly as it arrived on the socket. */
async function rawUpstream() {
  const heads: string[] = [];
  const server = net.createServer((socket) => {
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      heads.push(received.slice(0, end));
      received = "";
      socket.end(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
      );
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const headerNames = (head: string) =>
    head
      .split("\r\n")
      .slice(1)
      .map((line) => line.slice(0, line.indexOf(":")).toLowerCase());
  const headerValue = (head: string, name: string) =>
    head
      .split("\r\n")
      .find((line) => line.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  return { url: `http://127.0.0.1:${port}`, heads, headerNames, headerValue, close: () => server.close() };
}

describe("headers toward the backend", () => {
  it("are an allow-list, with forwarded host and protocol from the public origin", async () => {
    const upstream = await rawUpstream();
    const { app } = createTestGateway(upstream.url, {
      SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}`,
      PUBLIC_ORIGIN: "https://argus.example",
    });
    const response = await request(app)
      .get("/api/projects")
      .set("Host", "attacker.example")
      .set("Cookie", cookieHeader(token))
      .set("Forwarded", "for=6.6.6.6;host=evil.example")
      .set("X-Real-IP", "6.6.6.6")
      .set("Proxy-Authorization", "Basic c2VjcmV0")
      .set("X-Forwarded-Host", "evil.example")
      .set("X-Forwarded-Proto", "gopher")
      .set("X-Custom", "anything")
      .set("Accept-Language", "fr");
    upstream.close();
    expect(response.status).toBe(200);
    const head = upstream.heads.find((line) => line.startsWith("GET /api/projects")) ?? "";
    const names = upstream.headerNames(head);
    for (const dropped of ["forwarded", "x-real-ip", "proxy-authorization", "cookie", "x-custom"]) {
      expect(names).not.toContain(dropped);
    }
    expect(upstream.headerValue(head, "x-forwarded-host")).toBe("argus.example");
    expect(upstream.headerValue(head, "x-forwarded-proto")).toBe("https");
    expect(upstream.headerValue(head, "authorization")).toBe(`Bearer ${token}`);
    expect(upstream.headerValue(head, "accept-language")).toBe("fr");
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("webhooks of code hosts and Stripe", () => {
  it("reach the backend without a session, with their signature headers and the body's exact bytes", async () => {
    const upstream = await rawUpstream();
    const { app } = createTestGateway(upstream.url, { SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}` });
    const body = '{"action":"created","installation":{"id":1}}';
    const response = await request(app)
      .post(API_PATHS.githubWebhook)
      .set("Cookie", cookieHeader(token))
      .set("Content-Type", "application/json")
      .set("X-GitHub-Event", "installation")
      .set("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958")
      .set("X-Hub-Signature-256", "sha256=abc")
      .set("X-Custom", "dropped")
      .send(body);
    upstream.close();
    expect(response.status).toBe(200);
    const head = upstream.heads.find((line) => line.startsWith(`POST ${API_PATHS.githubWebhook}`)) ?? "";
    expect(upstream.headerValue(head, "x-github-event")).toBe("installation");
    expect(upstream.headerValue(head, "x-github-delivery")).toBe("72d3162e-cc78-11e3-81ab-4c9367dc0958");
    expect(upstream.headerValue(head, "x-hub-signature-256")).toBe("sha256=abc");
    expect(upstream.headerValue(head, "content-length")).toBe(String(body.length));
    const names = upstream.headerNames(head);
    expect(names).not.toContain("authorization");
    expect(names).not.toContain("x-custom");
  });

  it("reach the backend with Stripe's signature header and the body's exact bytes", async () => {
    const upstream = await rawUpstream();
    const { app } = createTestGateway(upstream.url, { SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}` });
    const body = '{"id":"evt_1","object":"event","type":"invoice.paid"}';
    const signature = "t=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd";
    const response = await request(app)
      .post(API_PATHS.stripeWebhook)
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", signature)
      .set("X-Custom", "dropped")
      .send(body);
    upstream.close();
    expect(response.status).toBe(200);
    const head = upstream.heads.find((line) => line.startsWith(`POST ${API_PATHS.stripeWebhook}`)) ?? "";
    expect(upstream.headerValue(head, "stripe-signature")).toBe(signature);
    expect(upstream.headerValue(head, "content-length")).toBe(String(body.length));
    expect(upstream.headerNames(head)).not.toContain("x-custom");
  });

  it("forward an Azure DevOps hook's own Basic auth to the backend", async () => {
    const upstream = await rawUpstream();
    const { app } = createTestGateway(upstream.url, { SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}` });
    const authorization = `Basic ${Buffer.from("argus:hook-secret").toString("base64")}`;
    const hookPath = API_PATHS.azureDevOpsWebhook("5f0c8a4e-3b7d-4c61-9a2e-8d1f6b0e4c37");
    const response = await request(app)
      .post(hookPath)
      .set("Cookie", cookieHeader(token))
      .set("Authorization", authorization)
      .set("Content-Type", "application/json")
      .send('{"eventType":"git.pullrequest.created"}');
    upstream.close();
    expect(response.status).toBe(200);
    const head = upstream.heads.find((line) => line.startsWith(`POST ${hookPath}`)) ?? "";
    expect(upstream.headerValue(head, "authorization")).toBe(authorization);
  });

  it("keep their signature headers to webhook paths: an /api call does not forward them", async () => {
    const upstream = await rawUpstream();
    const { app } = createTestGateway(upstream.url, { SESSION_JWKS_URL: `${backend.url}${API_PATHS.jwks}` });
    await request(app)
      .post("/api/projects")
      .set("Cookie", cookieHeader(token))
      .set("X-Hub-Signature-256", "sha256=abc")
      .set("Stripe-Signature", "t=1,v1=abc")
      .send({});
    upstream.close();
    const head = upstream.heads.find((line) => line.startsWith("POST /api/projects")) ?? "";
    expect(upstream.headerNames(head)).not.toContain("x-hub-signature-256");
    expect(upstream.headerNames(head)).not.toContain("stripe-signature");
  });
});

/** Sends a request line exactly as written: fetch and supertest would normalise the path first. */
async function rawRequest(port: number, path: string): Promise<string> {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookieHeader(token)}\r\nConnection: close\r\n\r\n`,
  );
  let answer = "";
  for await (const chunk of socket) answer += chunk.toString();
  return answer;
}

describe("paths with dot segments or encoded separators", () => {
  it.each([
    "/api/../auth/logout",
    "/api/./projects",
    "/api/projects/..",
    "/api/%2e%2e/auth/refresh",
    "/api/%2E%2E/x",
    "/api/a%2fb",
    "/api/a%2Fb",
    "/api/a%5cb",
    "/api/a\\b",
    "/auth/..%2flogin",
    // An absolute-form request target: no proxied call is sent with a URL for a path.
    "http://127.0.0.1/api/projects",
  ])("refuses %s with 400 before proxying", async (path) => {
    const running = await listenForTest(createTestGateway(backend.url));
    const { port } = running.server.address() as AddressInfo;
    const answer = await rawRequest(port, path);
    await running.shutdown();
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain(ERROR_CODES.invalidPath);
    expect(apiCalls()).toHaveLength(0);
  });
});
