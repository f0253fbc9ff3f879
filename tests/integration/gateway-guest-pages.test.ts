/**
 * Guest pages rendered once and served from memory (docs/decisions/043-guest-pages-rendered-once.md),
 * against the production build and the fake backend.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { ACCOUNT_EMAIL_PAGES } from "../../shared/constants.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { FakeBackend } from "../support/fake-backend.ts";
import { fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, listenForTest, sessionCookieOf } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
beforeAll(async () => {
  ensureBuild();
  backend = fakeBackend();
});

const GUEST_PAGES = ["/login", "/signup", "/forgot-password", "/reset-password", "/email-verified"];
/** A crawler's user agent: its render is the whole document, as the cached copy is. */
const CRAWLER = "Googlebot/2.1 (+http://www.google.com/bot.html)";

type Gateway = ReturnType<typeof createTestGateway>;

/** Reads a body as bytes whatever its type, without supertest decoding it. */
function raw(test: request.Test) {
  return test.buffer(true).parse((res, callback) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("end", () => callback(null, Buffer.concat(chunks)));
  });
}

/** A GET that asks for no encoding unless told (supertest asks for gzip by default). */
function get(gateway: Gateway, path: string, headers: Record<string, string> = {}) {
  return raw(
    request(gateway.app)
      .get(path)
      .set({ "Accept-Encoding": "identity", ...headers }),
  );
}

type WireResponse = { headers: http.IncomingHttpHeaders; body: Buffer };

/** Responses to /login as sent over a socket, undecoded (supertest would decompress them). */
async function overTheWire<K extends string>(
  gateway: Gateway,
  requests: Record<K, Record<string, string>>,
): Promise<Record<K, WireResponse>> {
  const running = await listenForTest(gateway);
  const fetchRaw = (headers: Record<string, string>) =>
    new Promise<WireResponse>((resolve, reject) => {
      http
        .get(`${running.url}/login`, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
  try {
    const responses = {} as Record<K, WireResponse>;
    for (const name of Object.keys(requests) as K[]) responses[name] = await fetchRaw(requests[name]);
    return responses;
  } finally {
    await running.shutdown();
  }
}

function cspOf(response: request.Response): string {
  return String(response.headers["content-security-policy"]);
}

function scriptSrcOf(csp: string): string[] {
  const directive = csp.split(";").find((part) => part.trim().startsWith("script-src "));
  return directive?.trim().split(/\s+/).slice(1) ?? [];
}

/** The SHA-256 of each inline script, computed here independently of the gateway. */
function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if ((match[1] ?? "").includes("src=")) continue;
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[2] ?? "")
        .digest("base64")}'`,
    );
  }
  return [...hashes].sort();
}

/** A page rendered the normal way: a cookie that does not verify takes the visitor down that path. */
function renderedPerRequest(gateway: Gateway, path: string, userAgent = CRAWLER) {
  return get(gateway, path, { Cookie: cookieHeader("not-a-token"), "User-Agent": userAgent });
}

function withoutNonce(html: string, nonce: string): string {
  return html.replaceAll(` nonce="${nonce}"`, "");
}

function nonceOf(response: request.Response): string {
  const nonce = /'nonce-([^']+)'/.exec(cspOf(response))?.[1];
  if (!nonce) throw new Error("no nonce in the CSP");
  return nonce;
}

describe("guest pages rendered once", () => {
  it("serves each page as the bytes of its render, the same for every visitor, with no nonce", async () => {
    const gateway = createTestGateway(backend.url);
    for (const path of GUEST_PAGES) {
      const first = await get(gateway, path);
      const second = await get(gateway, path, { "User-Agent": "Mozilla/5.0 Firefox/140.0" });
      expect(first.status, path).toBe(200);
      expect(second.body.equals(first.body), path).toBe(true);
      expect(first.headers.etag, path).toBeTruthy();
      expect(second.headers.etag, path).toBe(first.headers.etag);
      expect(cspOf(second), path).toBe(cspOf(first));
      expect(String(first.body), path).not.toContain("nonce=");

      const rendered = await renderedPerRequest(gateway, path);
      expect(rendered.status, path).toBe(200);
      expect(withoutNonce(String(rendered.body), nonceOf(rendered)), path).toBe(String(first.body));
    }
  });

  it("sends a CSP that allows exactly the page's inline scripts by hash, and nothing inline else", async () => {
    const gateway = createTestGateway(backend.url);
    const nonced = scriptSrcOf(cspOf(await get(gateway, "/healthz")));
    for (const path of GUEST_PAGES) {
      const response = await get(gateway, path);
      const html = String(response.body);
      const scriptSrc = scriptSrcOf(cspOf(response));
      const hashes = inlineScriptHashes(html);
      expect(hashes.length, path).toBeGreaterThan(1);
      expect(scriptSrc.filter((source) => source.startsWith("'sha256-")).sort(), path).toEqual(hashes);
      // Everything else in the policy is the nonce policy's, without the nonce.
      expect(
        scriptSrc.filter((source) => !source.startsWith("'sha256-")),
        path,
      ).toEqual(nonced.filter((source) => !source.startsWith("'nonce-")));
      expect(cspOf(response).replace(/ 'sha256-[^']+'/g, ""), path).toBe(
        cspOf(await get(gateway, "/healthz")).replace(/ 'nonce-[^']+'/, ""),
      );
      expect(scriptSrc.join(" "), path).not.toMatch(/unsafe-inline|nonce-/);
    }
  });

  it("keeps the security headers, the request id and the log line", async () => {
    const gateway = createTestGateway(backend.url);
    await get(gateway, "/login");
    const response = await get(gateway, "/login");
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(response.headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
    expect(response.headers["cache-control"]).toBeUndefined();
    const requestId = response.headers["x-request-id"];
    expect(requestId).toBeTruthy();
    const line = gateway.logs.lines
      .map((text) => JSON.parse(text))
      .find((entry) => entry.req?.id === requestId);
    expect(line?.msg).toMatch(/^GET \/login 200 \d+ms$/);
  });

  it("compresses per Accept-Encoding, and sends plain bytes to a client that takes no encoding", async () => {
    const gateway = createTestGateway(backend.url);
    const plain = await get(gateway, "/login");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("Accept-Encoding");
    expect(String(plain.body)).toMatch(/^<!DOCTYPE html>/);
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);

    const refused = await get(gateway, "/login", { "Accept-Encoding": "gzip;q=0, deflate;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);

    const { gzip, br, none } = await overTheWire(gateway, {
      gzip: { "Accept-Encoding": "gzip" },
      br: { "Accept-Encoding": "gzip, deflate, br, zstd" },
      none: {},
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toContain("Accept-Encoding");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.headers.etag).not.toBe(plain.headers.etag);

    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    // No Accept-Encoding at all: only identity is acceptable.
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body.equals(plain.body)).toBe(true);
  });

  it("answers 304 to a visitor who holds the current copy", async () => {
    const gateway = createTestGateway(backend.url);
    const first = await get(gateway, "/login", { "Accept-Encoding": "gzip" });
    const again = await get(gateway, "/login", {
      "Accept-Encoding": "gzip",
      "If-None-Match": String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    const stale = await get(gateway, "/login", { "Accept-Encoding": "gzip", "If-None-Match": '"other"' });
    expect(stale.status).toBe(200);
  });

  it("still sends a signed-in user from /login and /signup to /home", async () => {
    const gateway = createTestGateway(backend.url);
    await get(gateway, "/login");
    const token = await backend.mint();
    for (const path of ["/login", "/signup"]) {
      const response = await get(gateway, path, { Cookie: cookieHeader(token) });
      expect(response.status, path).toBe(302);
      expect(response.headers.location, path).toBe("/home");
    }
  });

  it("clears a cookie that does not verify and renders the page for that request, as before", async () => {
    const gateway = createTestGateway(backend.url);
    await get(gateway, "/login");
    const response = await get(gateway, "/login", { Cookie: cookieHeader("not-a-token") });
    expect(response.status).toBe(200);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
    expect(cspOf(response)).toMatch(/'nonce-/);
    expect(response.headers.etag).toBeUndefined();
  });

  it("serves /login with a redirect target from memory: the query does not change the page", async () => {
    const gateway = createTestGateway(backend.url);
    const plain = await get(gateway, "/login");
    const withTarget = await get(gateway, "/login?redirectTo=%2Freviews%3Ftab%3D1");
    expect(withTarget.headers.etag).toBe(plain.headers.etag);
    // Rendered per request, the page with the query is the same bytes.
    const rendered = await renderedPerRequest(gateway, "/login?redirectTo=%2Freviews%3Ftab%3D1");
    expect(withoutNonce(String(rendered.body), nonceOf(rendered))).toBe(String(plain.body));
  });

  it("renders the account e-mail pages per request when their link carries a code", async () => {
    const gateway = createTestGateway(backend.url);
    const emptyVerification = await get(gateway, ACCOUNT_EMAIL_PAGES.verifyEmail);
    const verification = await get(
      gateway,
      `${ACCOUNT_EMAIL_PAGES.verifyEmail}?mode=verifyEmail&oobCode=abc`,
    );
    expect(verification.status).toBe(200);
    expect(cspOf(verification)).toMatch(/'nonce-/);
    expect(String(verification.body)).toContain("Verifying your email");
    expect(String(emptyVerification.body)).not.toContain("Verifying your email");

    await get(gateway, ACCOUNT_EMAIL_PAGES.resetPassword);
    backend.calls.length = 0;
    const reset = await get(gateway, `${ACCOUNT_EMAIL_PAGES.resetPassword}?mode=resetPassword&oobCode=abc`);
    expect(reset.status).toBe(200);
    expect(cspOf(reset)).toMatch(/'nonce-/);
    // The loader asked the backend about this link's code.
    expect(backend.calls.map((call) => call.path)).toContain(API_PATHS.resetPasswordCheck);
  });

  it("builds each gateway's copy from its own configuration", async () => {
    const one = createTestGateway(backend.url, { PRODUCT_NAME: "Argus One" });
    const two = createTestGateway(backend.url, { PRODUCT_NAME: "Argus Two" });
    const first = String((await get(one, "/login")).body);
    const second = String((await get(two, "/login")).body);
    expect(first).toContain("Argus One");
    expect(first).not.toContain("Argus Two");
    expect(second).toContain("Argus Two");
  });

  it("renders per request in development, where Vite serves changing modules", async () => {
    const gateway = createTestGateway(backend.url, { NODE_ENV: "development" });
    const first = await get(gateway, "/login");
    expect(first.status).toBe(200);
    expect(cspOf(first)).toMatch(/'nonce-/);
    expect(first.headers.etag).toBeUndefined();
  });
});
