/**
 * A tab opened before the server was updated (client/lib/stale-build.ts): the part it fetches on
 * demand is gone, and so is its build's manifest, so asking for the part reloads the page, which then
 * has it. A part that fails while the build is still there (a dropped connection) reloads nothing by
 * itself: the page says so and offers the reload.
 * The update is played by answering 404 for the part's chunk and by pointing the page at a manifest
 * the server does not have, which the gateway answers 404 as it would an old build's.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PART_FAILED_TEXT } from "../../client/components/part-failed-notice.tsx";
import {
  launchBrowser,
  seriousViolations,
  signedInPage,
  takeBrowserErrors,
  waitForHydration,
} from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
const DIALOGS_CHUNK = /\/assets\/subscription-dialogs-[\w-]+\.js$/;
const MANIFEST = /\/assets\/manifest-[\w-]+\.js$/;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Marks the document, so a reload (a new document, without the mark) can be told apart. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { marked?: boolean }).marked = true;
  });
}
const stillMarked = (page: Page) =>
  page.evaluate(() => (window as unknown as { marked?: boolean }).marked === true);

/** Points the page at a manifest the server does not have, as an old build's is after an update. */
async function pointAtGoneManifest(page: Page) {
  await page.evaluate(() => {
    const context = window as unknown as { __reactRouterManifest: { url: string } };
    context.__reactRouterManifest.url = "/assets/manifest-00000000.js";
  });
}

/** The notice's Reload page, then the dialog the reloaded page now opens. */
async function reloadFromNotice(page: Page, notice: Locator) {
  const reloaded = page.waitForEvent("load");
  await notice.getByRole("button", { name: PART_FAILED_TEXT.reload }).click();
  await reloaded;
  await waitForHydration(page);
  await page.getByRole("button", { name: "Upgrade to Pro" }).click();
  await page.getByRole("dialog", { name: "Upgrade to Pro" }).waitFor();
}

describe("a build replaced under an open tab", () => {
  it("reloads the page when a part asked for is gone with its build, once, and the part then opens", async () => {
    const page = await signedInPage(browser, stack, "Mary Golda Ross", "/subscriptions");
    await page.route(DIALOGS_CHUNK, (route) => route.fulfill({ status: 404 }));
    await waitForHydration(page);
    await markDocument(page);
    await pointAtGoneManifest(page);

    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    await reloaded;
    expect(await stillMarked(page)).toBe(false);

    // Had the reload served the same build again, a second failure must not reload in a loop.
    await waitForHydration(page);
    await markDocument(page);
    await pointAtGoneManifest(page);
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    // It says so instead, and offers the reload.
    const notice = page.getByRole("alert").filter({ hasText: PART_FAILED_TEXT.title });
    await notice.waitFor();
    expect(await stillMarked(page)).toBe(true);

    // The server answers as the new build would: the part is there.
    await page.unrouteAll();
    await reloadFromNotice(page, notice);
    await page.context().close();
  });

  it("says so when the part fails but its build is still there, and its reload brings the part", async () => {
    const page = await signedInPage(browser, stack, "Gladys West", "/subscriptions");
    await waitForHydration(page);
    await markDocument(page);
    await page.route(DIALOGS_CHUNK, (route) => route.abort("connectionreset"));
    const manifestAsked = new Promise<number>((resolve) => {
      void page.route(MANIFEST, async (route) => {
        const answer = await route.fetch();
        resolve(answer.status());
        await route.fulfill({ response: answer });
      });
    });

    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    // The page asked whether its build is still there, and it is: no reload, but a notice, since
    // the browser will not fetch the part again in this page.
    expect(await manifestAsked).toBe(200);
    const notice = page.getByRole("alert").filter({ hasText: PART_FAILED_TEXT.title });
    await notice.waitFor();
    expect(await stillMarked(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // Chromium logged the dropped fetch, the one error this test provokes.
    expect(takeBrowserErrors()).toEqual([expect.stringContaining("ERR_CONNECTION_RESET")]);

    // The connection is back: the notice's reload brings the part.
    await page.unrouteAll();
    await reloadFromNotice(page, notice);
    await page.context().close();
  });
});
