/**
 * The review engine seen by a newcomer on `npm start`: connect the sandbox code host, open the
 * leaked-key template as a pull request, and see the finding inline on the sandbox's pull request
 * page and in the run's decision log; every page passes axe.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  connectSandbox,
  launchBrowser,
  openLeakedKeyPull,
  openSandboxPulls,
  seriousViolations,
  signedInPage,
} from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("sandbox pull requests", () => {
  it("a leaked key gets an inline finding on the pull request and in the run's decision log", async () => {
    const page = await signedInPage(browser, stack, "Dorothy Vaughan", "/integrations/github");
    await connectSandbox(page);

    // A sandbox repository's card leads to its pull requests.
    await openSandboxPulls(page);
    await page.getByRole("heading", { name: "Open a pull request from a template" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const comment = await openLeakedKeyPull(page);
    expect(await comment.textContent()).toContain("secrets/github");
    const conversation = page.getByRole("region", { name: "Conversation" });
    expect(await conversation.getByRole("article", { name: "Review" }).count()).toBe(1);
    // The review's check on the head commit, concluded once the review is posted.
    const checks = page.getByRole("region", { name: "Checks" });
    await checks.getByText(/Successful: 1 new finding/).waitFor();
    const details = checks.getByRole("link", { name: /^Details of .* review$/ });
    expect(await details.getAttribute("href")).toMatch(/\/reviews\/[0-9a-f-]+$/);
    expect(await seriousViolations(page)).toEqual([]);

    // On a phone the diff's long lines scroll sideways, but the comment stays in view, whole.
    await page.setViewportSize({ width: 390, height: 844 });
    const diff = comment.locator("xpath=ancestor::div[contains(@class, 'overflow-x-auto')]");
    expect(await diff.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await diff.evaluate((element) => {
      element.scrollLeft = element.scrollWidth;
    });
    const [shown, box] = await Promise.all([diff.boundingBox(), comment.boundingBox()]);
    expect(box && shown && box.x >= shown.x && box.x + box.width <= shown.x + shown.width).toBe(true);
    await page.setViewportSize({ width: 1280, height: 720 });

    await page.getByRole("link", { name: "See its decision log" }).click();
    await page.waitForURL(/\/reviews\/[^/]+$/);
    const findings = page.getByRole("region", { name: "Findings" });
    await findings.getByText("secrets/github").waitFor();
    expect(await findings.textContent()).toContain("Posted inline");
    const log = page.getByRole("region", { name: "Decision log" });
    expect(await log.getByRole("listitem").count()).toBeGreaterThan(2);
    expect(await log.textContent()).toContain("post");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Reviews", exact: true }).first().click();
    await page.waitForURL(/\/reviews$/);
    await page.getByRole("table", { name: "Review runs, newest first" }).waitFor();
    expect(await page.getByRole("row").count()).toBeGreaterThan(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
