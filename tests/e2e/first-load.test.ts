/**
 * First-load JavaScript as Chromium fetches it, for a guest on /login and a signed-in user on /home:
 * every script response from the navigation until the network is idle (what the HTML names, their
 * imports, and anything the page fetches on its own once hydrated), each body gzipped at level 9 as
 * the static measure does (scripts/lib/page-weight.ts), which cannot see code fetched at idle.
 * docs/decisions/046-first-load-in-chromium.md.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type FirstLoad, firstLoadInChromium } from "../../scripts/lib/first-load.ts";
import { launchBrowser, signedInPage } from "./browser.ts";

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

/** The scripts a fresh load of `path` fetched until the network was idle: path and gzip -9 bytes. */
async function scriptsUntilIdle(context: BrowserContext, path: string): Promise<FirstLoad> {
  const load = await firstLoadInChromium(context, `${baseUrl}${path}`);
  expect(load.status).toBe(200);
  expect(load.finalPath).toBe(path);
  return load;
}

function expectWithinBudget(path: keyof typeof CHROMIUM_BUDGETS_KB, load: FirstLoad) {
  const { kilobytes: kB, sentKilobytes, scripts } = load;
  const budget = CHROMIUM_BUDGETS_KB[path];
  console.log(
    `${path} in Chromium: ${kB.toFixed(1)} kB of ${budget} kB (gzip -9, ${scripts.size} files), ${sentKilobytes.toFixed(1)} kB as sent`,
  );
  expect(kB, `${path} fetched ${[...scripts.keys()].join(", ")}`).toBeLessThanOrEqual(budget);
  // The gateway sends the Brotli the build made (docs/decisions/054-precompressed-assets.md), about
  // a tenth smaller than gzip -9; compressed per request (Brotli 4) it came to gzip -9's size or more.
  expect(sentKilobytes).toBeLessThan(kB * 0.95);
}

describe("first-load JavaScript in Chromium, until the network is idle", () => {
  it("keeps /login, for a guest, within its budget", async () => {
    const context = await browser.newContext();
    expectWithinBudget("/login", await scriptsUntilIdle(context, "/login"));
    await context.close();
  });

  it("keeps /home, signed in, within its budget", async () => {
    const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
    const signedIn = await signedInPage(browser, stack, "Edsger Dijkstra", "/home");
    // A context of its own with the session only, so nothing comes from the sign-in's HTTP cache.
    const context = await browser.newContext({ storageState: await signedIn.context().storageState() });
    await signedIn.context().close();
    expectWithinBudget("/home", await scriptsUntilIdle(context, "/home"));
    await context.close();
  });
});
