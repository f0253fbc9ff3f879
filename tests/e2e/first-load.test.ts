/**
 * A first load as Chromium makes it, for a guest on /login and a signed-in user on /home:
 * - its JavaScript: every script response from the navigation until the network is idle (what the
 *   HTML names, their imports, and anything the page fetches on its own once hydrated), each body
 *   gzipped at level 9 as the static measure does (scripts/lib/page-weight.ts), which cannot see
 *   code a page fetches at idle;
 * - its first paint, which comes before hydration starts (client/lib/first-paint.ts).
 * docs/decisions/046-first-load-and-first-paint.md.
 */
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { HYDRATION_MARK } from "../../client/lib/first-paint.ts";
import { launchBrowser, signedInPage, waitForHydration } from "./browser.ts";

/**
 * Gzipped JavaScript each page may fetch until the network is idle, in kB (1 kB = 1000 bytes): the
 * static budgets of tests/integration/page-weight.test.ts, so nothing may come on top at idle.
 */
const CHROMIUM_BUDGETS_KB = { "/login": 141, "/home": 135 };

const baseUrl = inject("gatewayUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface FirstLoad {
  /** Each script fetched until the network was idle: its path and gzip -9 bytes. */
  scripts: Map<string, number>;
  /** Milliseconds from the navigation's start. */
  firstContentfulPaint: number;
  hydrationStart: number;
}

async function firstLoad(context: BrowserContext, path: string): Promise<FirstLoad> {
  const page = await context.newPage();
  const reads: Promise<void>[] = [];
  const scripts = new Map<string, number>();
  page.on("response", (response) => {
    if (!/javascript/.test(response.headers()["content-type"] ?? "")) return;
    reads.push(
      response.body().then((body) => {
        scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
      }),
    );
  });
  const answer = await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
  expect(answer?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe(path);
  await Promise.all(reads);
  await waitForHydration(page);
  const timings = await page.evaluate(
    (mark) => ({
      firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
      hydrationStart: performance.getEntriesByName(mark)[0]?.startTime ?? -1,
    }),
    HYDRATION_MARK,
  );
  await page.close();
  return { scripts, ...timings };
}

function expectPaintBeforeHydration(path: string, load: FirstLoad) {
  console.log(
    `${path}: first paint at ${load.firstContentfulPaint} ms, hydration from ${load.hydrationStart} ms`,
  );
  expect(load.firstContentfulPaint).toBeGreaterThan(0);
  expect(load.hydrationStart).toBeGreaterThan(load.firstContentfulPaint);
}

function expectWithinBudget(path: keyof typeof CHROMIUM_BUDGETS_KB, scripts: Map<string, number>) {
  const kB = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0) / 1000;
  const budget = CHROMIUM_BUDGETS_KB[path];
  console.log(`${path} in Chromium: ${kB.toFixed(1)} kB of ${budget} kB (gzip -9, ${scripts.size} files)`);
  expect(kB, `${path} fetched ${[...scripts.keys()].join(", ")}`).toBeLessThanOrEqual(budget);
}

describe("a first load in Chromium", () => {
  it("keeps /login, for a guest, within its budget and paints it before hydrating", async () => {
    const context = await browser.newContext();
    const load = await firstLoad(context, "/login");
    expectWithinBudget("/login", load.scripts);
    expectPaintBeforeHydration("/login", load);
    await context.close();
  });

  it("keeps /home, signed in, within its budget and paints it before hydrating", async () => {
    const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
    const signedIn = await signedInPage(browser, stack, "Edsger Dijkstra", "/home");
    // A context of its own with the session only, so nothing comes from the sign-in's HTTP cache.
    const context = await browser.newContext({ storageState: await signedIn.context().storageState() });
    await signedIn.context().close();
    const load = await firstLoad(context, "/home");
    expectWithinBudget("/home", load.scripts);
    expectPaintBeforeHydration("/home", load);
    await context.close();
  });
});
