/** The guest-page cache with a page handler of the test's own, through the whole gateway. */
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import type { PageHandlerModule } from "../shared/gateway-context.ts";
import { createTestGateway } from "../tests/support/gateway.ts";
import { inlineScriptHashes } from "./guest-pages.ts";

/** Nothing listens here: no request in this file may reach a backend. */
const NO_BACKEND = "http://127.0.0.1:9";

/** A page module whose handler writes `page` and counts its calls; `behave` may change one call. */
function fakePages(behave: (call: number, res: Parameters<RequestHandler>[1]) => void = () => {}) {
  const calls: string[] = [];
  const module: PageHandlerModule = {
    createPageHandler: ({ contextFor }) => {
      return (req, res) => {
        calls.push(String(req.headers["user-agent"]));
        const { nonce } = contextFor(req, res);
        behave(calls.length, res);
        res
          .status(200)
          .type("html")
          .end(
            `<!DOCTYPE html><html><body><p>Sign in</p><script nonce="${nonce}">start()</script></body></html>`,
          );
      };
    },
  };
  return { calls, source: async () => module };
}

describe("inline script hashes", () => {
  it("hashes each inline script as the browser does (newlines normalised) and skips external ones", () => {
    const sha = (text: string) => createHash("sha256").update(text).digest("base64");
    const html =
      '<script>a()</script><script type="module" src="/assets/x.js"></script>' +
      '<SCRIPT type="module">b()\r\nc()</SCRIPT><script>a()</script>';
    expect(inlineScriptHashes(html).sort()).toEqual([sha("a()"), sha("b()\nc()")].sort());
  });
});

describe("the guest-page cache", () => {
  it("renders a page once and serves the copy to every later visitor", async () => {
    const pages = fakePages();
    const { app } = createTestGateway(NO_BACKEND, {}, { pages: pages.source });
    const first = await request(app).get("/login");
    const second = await request(app).get("/login");
    expect(second.text).toBe(first.text);
    expect(first.text).toContain("<script>start()</script>");
    expect(pages.calls).toHaveLength(1);
    expect(String(first.headers["content-security-policy"])).toContain(
      `'sha256-${createHash("sha256").update("start()").digest("base64")}'`,
    );
  });

  it("renders per request a page whose render sets a cookie", async () => {
    const pages = fakePages((_call, res) => res.cookie("theme", "dark"));
    const { app, logs } = createTestGateway(NO_BACKEND, {}, { pages: pages.source });
    for (let i = 0; i < 3; i++) {
      const response = await request(app).get("/login");
      expect(String(response.headers["content-security-policy"])).toMatch(/'nonce-/);
      expect(response.headers["set-cookie"]).toBeDefined();
    }
    // The made-up render, then one render per visitor; never another attempt to cache.
    expect(pages.calls).toHaveLength(4);
    expect(logs.text()).toContain("guest page not cacheable");
  });

  it("tries again after a render that failed, and renders that visitor's page the normal way", async () => {
    const pages = fakePages((call) => {
      if (call === 1) throw new Error("the render broke");
    });
    const { app } = createTestGateway(NO_BACKEND, {}, { pages: pages.source });
    const first = await request(app).get("/login");
    expect(first.status).toBe(200);
    expect(String(first.headers["content-security-policy"])).toMatch(/'nonce-/);
    const second = await request(app).get("/login");
    expect(String(second.headers["content-security-policy"])).toMatch(/'sha256-/);
    const third = await request(app).get("/login");
    expect(third.text).toBe(second.text);
    // The failed render, the first visitor's, the second attempt at the copy.
    expect(pages.calls).toHaveLength(3);
  });

  it("never lets a visitor's headers into the copy", async () => {
    const pages = fakePages();
    const { app } = createTestGateway(NO_BACKEND, {}, { pages: pages.source });
    await request(app).get("/login").set("User-Agent", "Visitor/1.0").set("Host", "evil.example");
    expect(pages.calls).toEqual(["Argus guest-page prerender (bot)"]);
  });
});
