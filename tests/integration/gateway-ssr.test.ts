/** The gateway's server render, against the production build and the fake backend. */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import request from "supertest";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { LOADER_CALLS_DEADLINE_MS } from "../../client/lib/backend.server.ts";
import { STREAM_TIMEOUT_MS } from "../../client/lib/stream-timeout.ts";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { ERRORS } from "../../shared/contract/accounts.ts";
import { type FakeBackend, TEST_USER } from "../support/fake-backend.ts";
import { fakeBackendForFile } from "../support/fake-backend-for-file.ts";
import { cookieHeader, createTestGateway, listenForTest, sessionCookieOf } from "../support/gateway.ts";

const fakeBackend = fakeBackendForFile();
let backend: FakeBackend;
beforeAll(async () => {
  ensureBuild();
  backend = fakeBackend();
});
const now = () => Math.floor(Date.now() / 1000);

/** The bytes as sent, undecoded, for the given Accept-Encoding. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("the document", () => {
  // Guest pages are rendered once and name their scripts' hashes instead (gateway-guest-pages.test.ts).
  it("carries the CSP nonce of its header on every script of a page rendered per request", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app)
      .get("/home")
      .set("Cookie", cookieHeader(await backend.mint()));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    const nonce = /'nonce-([^']+)'/.exec(String(response.headers["content-security-policy"]))?.[1];
    expect(nonce).toBeTruthy();
    const scripts = response.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("names its stylesheet before any module preload, on a guest page and a signed-in one", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint();
    for (const page of [
      request(app).get("/login"),
      request(app).get("/home").set("Cookie", cookieHeader(token)),
    ]) {
      const response = await page;
      expect(response.status).toBe(200);
      const head = response.text.slice(0, response.text.indexOf("</head>"));
      const links = head.match(/<link\b[^>]*>/g) ?? [];
      const rels = links.map((tag) => /rel="([^"]+)"/.exec(tag)?.[1]);
      expect(rels).toContain("modulepreload");
      // The browser asks for what the head names in order: the page cannot paint before its styles.
      expect(rels.indexOf("stylesheet")).toBe(0);
    }
  });

  it("is compressed for a browser that accepts gzip", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/login").set("Accept-Encoding", "gzip");
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.text).toContain("<!DOCTYPE html>");
  });

  it("serves hashed assets as immutable", async () => {
    const { app } = createTestGateway(backend.url);
    const page = await request(app).get("/login");
    const asset = /\/assets\/[^"]+\.js/.exec(page.text)?.[0];
    expect(asset).toBeTruthy();
    const response = await request(app).get(asset as string);
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toContain("immutable");
  });

  it("asks crawlers to stay out of every page", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    expect(response.text).toBe("User-agent: *\nDisallow: /\n");
  });

  it("answers 404 for an asset the build does not have, as a tab open across an update asks for", async () => {
    const { app } = createTestGateway(backend.url);
    for (const method of ["get", "head"] as const) {
      const response = await request(app)[method]("/assets/manifest-00000000.js");
      // Not the unknown path's redirect home: a module import would get a page, and a tab could
      // not tell its build is gone (client/lib/stale-build.ts).
      expect(response.status, method).toBe(404);
      expect(response.headers["cache-control"], method).toBe("no-store");
    }
  });

  it("serves scripts and styles compressed at build time, in the encoding the browser prefers", async () => {
    const running = await listenForTest(createTestGateway(backend.url));
    try {
      const page = await request(running.url).get("/login");
      const framework = /\/assets\/framework-[\w-]+\.js/.exec(page.text)?.[0];
      const stylesheet = /\/assets\/[\w-]+\.css/.exec(page.text)?.[0];
      expect(framework && stylesheet).toBeTruthy();
      for (const asset of [framework, stylesheet] as string[]) {
        const original = readFileSync(path.join("build/client", asset));
        const brotli = await rawGet(`${running.url}${asset}`, "gzip, deflate, br, zstd");
        expect(brotli.headers["content-encoding"]).toBe("br");
        expect(brotli.headers.vary).toContain("Accept-Encoding");
        expect(brotli.headers["cache-control"]).toContain("immutable");
        expect(brotliDecompressSync(brotli.body).equals(original)).toBe(true);
        // The build's own file, not one compressed again for this request.
        expect(brotli.body.equals(readFileSync(path.join("build/client", `${asset}.br`)))).toBe(true);

        const gzip = await rawGet(`${running.url}${asset}`, "gzip");
        expect(gzip.headers["content-encoding"]).toBe("gzip");
        expect(gunzipSync(gzip.body).equals(original)).toBe(true);

        const plain = await rawGet(`${running.url}${asset}`, "identity");
        expect(plain.headers["content-encoding"]).toBeUndefined();
        expect(plain.headers["content-type"]).toMatch(/^(text\/javascript|text\/css)/);
        expect(plain.body.equals(original)).toBe(true);
      }
    } finally {
      await running.shutdown();
    }
  });

  it("serves static files before any session work: no token check, refresh or cookie", async () => {
    const { app } = createTestGateway(backend.url);
    const page = await request(app).get("/login");
    const assets = [...new Set(page.text.match(/\/assets\/[\w.-]+\.(js|css)/g) ?? [])];
    expect(assets.length).toBeGreaterThan(1);
    backend.calls.length = 0;
    const dueForRefresh = await backend.mint({ iat: now() - 56 * 60 });
    for (const path of assets) {
      const response = await request(app).get(path).set("Cookie", cookieHeader(dueForRefresh));
      expect(response.status).toBe(200);
      expect(sessionCookieOf(response.headers)).toBeUndefined();
    }
    // Not even the key set was fetched: the session middleware never ran.
    expect(backend.calls).toEqual([]);
  });
});

describe("bundles", () => {
  const FIREBASE_AUTH_MARK = "identitytoolkit.googleapis.com";
  const assetsOf = (html: string) => [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])];

  it("keeps the Firebase SDK out of the dashboard: /home loads none of it, /login loads it on demand", async () => {
    const { app } = createTestGateway(backend.url);
    const home = await request(app)
      .get("/home")
      .set("Cookie", cookieHeader(await backend.mint()));
    const homeAssets = assetsOf(home.text);
    expect(homeAssets.length).toBeGreaterThan(0);
    for (const asset of homeAssets) {
      expect(readFileSync(path.join("build/client", asset), "utf8"), asset).not.toContain(FIREBASE_AUTH_MARK);
    }
    const everyAsset = readdirSync("build/client/assets").filter((file) => file.endsWith(".js"));
    const firebaseChunks = everyAsset.filter((file) =>
      readFileSync(path.join("build/client/assets", file), "utf8").includes(FIREBASE_AUTH_MARK),
    );
    expect(firebaseChunks.length).toBeGreaterThan(0);
  });
});

describe("route guards on the server", () => {
  it("sends a guest from a protected page to /login, remembering path and query", async () => {
    const { app } = createTestGateway(backend.url);
    const response = await request(app).get("/home?tab=recent");
    expect(response.status).toBe(302);
    const location = new URL(String(response.headers.location), "http://gateway");
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("redirectTo")).toBe("/home?tab=recent");
  });

  it("renders /home with the session user's name in the first HTML", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint();
    const response = await request(app).get("/home").set("Cookie", cookieHeader(token));
    expect(response.status).toBe(200);
    expect(response.text).toContain(TEST_USER.name);
    // The loader used the token; the page must not carry it, and no cache may keep the page.
    expect(response.text).not.toContain(token);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("sends a signed-in user from /login to /home, and / to /home", async () => {
    const { app } = createTestGateway(backend.url);
    const token = await backend.mint();
    const login = await request(app).get("/login").set("Cookie", cookieHeader(token));
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe("/home");
    const root = await request(app).get("/").set("Cookie", cookieHeader(token));
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe("/home");
  });

  it("logs out a page request whose refresh is refused", async () => {
    backend.refreshRefused = true;
    const { app } = createTestGateway(backend.url);
    const old = await backend.mint({ iat: now() - 56 * 60 });
    const response = await request(app).get("/home").set("Cookie", cookieHeader(old));
    expect(response.status).toBe(302);
    expect(String(response.headers.location)).toMatch(/^\/login/);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=;/);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("renders a page with a refreshed cookie that no cache may keep", async () => {
    const { app } = createTestGateway(backend.url);
    const old = await backend.mint({ iat: now() - 56 * 60 });
    const response = await request(app).get("/home").set("Cookie", cookieHeader(old));
    expect(response.status).toBe(200);
    expect(sessionCookieOf(response.headers)).toMatch(/^auth_token=ey/);
    expect(response.headers["cache-control"]).toBe("no-store");
  });
});

/** Milliseconds until the first byte of the body, and the whole body. */
function timeFirstByte(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; firstByteMs: number; body: string }>((resolve, reject) => {
    const started = Date.now();
    http
      .get(url, { headers }, (response) => {
        let firstByteMs = -1;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (firstByteMs < 0) firstByteMs = Date.now() - started;
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, firstByteMs, body }));
      })
      .on("error", reject);
  });
}

describe("streaming", () => {
  const browserAgent =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36";

  it("sends a browser the shell before slow data, and a bot the whole page at once", async () => {
    backend.projectsDelayMs = 800;
    const running = await listenForTest(createTestGateway(backend.url));
    const cookie = cookieHeader(await backend.mint());
    const browser = await timeFirstByte(`${running.url}/home`, { cookie, "user-agent": browserAgent });
    const bot = await timeFirstByte(`${running.url}/home`, { cookie, "user-agent": "Googlebot/2.1" });
    await running.shutdown();
    expect(browser.firstByteMs).toBeLessThan(600);
    expect(browser.body).toContain("No projects found");
    expect(bot.firstByteMs).toBeGreaterThanOrEqual(800);
    expect(bot.body).toContain("No projects found");
  });

  it("shows a list the backend does not answer as failed, before the stream is cut off", async () => {
    // Never answered while the test runs: the loader's call must give up on its own.
    backend.projectsDelayMs = 60_000;
    const running = await listenForTest(createTestGateway(backend.url));
    const cookie = cookieHeader(await backend.mint());
    const started = Date.now();
    const page = await timeFirstByte(`${running.url}/home`, { cookie, "user-agent": browserAgent });
    const tookMs = Date.now() - started;
    await running.shutdown();
    expect(page.status).toBe(200);
    expect(page.firstByteMs).toBeLessThan(1000);
    // The page's own message with its Retry, streamed as the list's outcome, not a render error that
    // React Router's stream timeout would leave behind ("Unexpected Server Error" on the client).
    expect(page.body).toContain(ERRORS.loadProjects);
    expect(page.body).not.toContain("SanitizedError");
    expect(tookMs).toBeGreaterThanOrEqual(LOADER_CALLS_DEADLINE_MS);
    expect(tookMs).toBeLessThan(STREAM_TIMEOUT_MS);
  });

  it("finishes a streamed page during shutdown", async () => {
    backend.projectsDelayMs = 500;
    const gateway = createTestGateway(backend.url);
    const running = await listenForTest(gateway, 5000);
    const page = request(running.url)
      .get("/home")
      .set("Cookie", cookieHeader(await backend.mint()))
      .then((r) => r);
    await expect.poll(() => backend.openRequests()).toBeGreaterThan(0);
    const closed = running.shutdown();
    const response = await page;
    expect(response.status).toBe(200);
    expect(response.text).toContain("</html>");
    expect(response.text).toContain("No projects found");
    await closed;
  });

  it("logs a browser that leaves mid-stream at debug level, without a stack trace", async () => {
    backend.projectsDelayMs = 1500;
    const gateway = createTestGateway(backend.url, { LOG_LEVEL: "debug" });
    const running = await listenForTest(gateway);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const cookie = cookieHeader(await backend.mint());
    await new Promise<void>((resolve) => {
      const page = http.get(
        `${running.url}/home`,
        { headers: { cookie, "user-agent": browserAgent } },
        (res) => {
          // The shell has arrived and the projects are still loading: leave now.
          res.once("data", () => {
            page.destroy();
            resolve();
          });
        },
      );
      page.on("error", () => {});
    });
    const entries = () => gateway.logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    await expect
      .poll(() => entries().some((entry) => entry.level === 20 && /client left/.test(String(entry.msg))), {
        timeout: 5000,
      })
      .toBe(true);
    await running.shutdown();
    consoleError.mockRestore();
    expect(consoleError).not.toHaveBeenCalled();
    expect(entries().filter((entry) => Number(entry.level) >= 50)).toEqual([]);
    expect(gateway.logs.text()).not.toContain('"stack"');
  });
});
