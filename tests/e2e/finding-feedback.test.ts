/**
 * 👎 on a posted finding in the sandbox (decision 021): open the leaked-key template, press 👎 on
 * the review comment, push a commit that adds the line again, and the new run records the finding
 * as suppressed instead of posting it; the repository's Reviews page counts the 👎 under its rule;
 * every page passes axe.
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

describe("finding feedback in the sandbox", () => {
  it("a 👎 on a comment suppresses the finding in the next run", async () => {
    const page = await signedInPage(browser, stack, "Katherine Johnson", "/integrations/github");
    await connectSandbox(page);
    await openSandboxPulls(page);
    const comment = await openLeakedKeyPull(page);

    await comment.getByRole("button", { name: "Noise 0" }).click();
    const noise = comment.getByRole("button", { name: "Noise 1" });
    await noise.waitFor();
    expect(await noise.getAttribute("aria-pressed")).toBe("true");
    expect(await comment.getByRole("button", { name: "Useful 0" }).getAttribute("aria-pressed")).toBe(
      "false",
    );
    expect(await seriousViolations(page)).toEqual([]);

    const repositoryId = /\/sandbox\/repositories\/([^/]+)\/pulls/.exec(
      (await page.getByRole("link", { name: /^Pull requests of / }).getAttribute("href")) ?? "",
    )?.[1];

    // Push the token line again, a line further down: same finding, same fingerprint.
    const firstRun = await page.getByRole("link", { name: "See its decision log" }).getAttribute("href");
    const editor = page.getByRole("textbox", { name: "New text of src/config.ts" });
    const text = await editor.inputValue();
    const tokenLine = text.split("\n").find((line) => line.includes("githubToken: env")) ?? "";
    await editor.fill(text.replace(tokenLine, `${tokenLine}\n${tokenLine}`));
    await page.getByRole("button", { name: "Push commit" }).click();
    const runLink = page.getByRole("link", { name: "See its decision log" });
    await expect
      .poll(async () => (await runLink.getAttribute("href")) !== firstRun, { timeout: 30_000 })
      .toBe(true);
    await page.getByRole("status").getByText("Succeeded").waitFor({ timeout: 30_000 });

    await runLink.click();
    await page.waitForURL(/\/reviews\/[^/]+$/);
    const findings = page.getByRole("region", { name: "Findings" });
    await findings.getByText("secrets/github").waitFor();
    expect(await findings.textContent()).toContain("Suppressed (marked as noise in this repository)");
    expect(await findings.textContent()).toContain("1 noise");
    const log = page.getByRole("region", { name: "Decision log" });
    expect(await log.textContent()).toContain("feedback.suppressed");
    expect(await seriousViolations(page)).toEqual([]);

    // The repository's reviews sum its reactions by rule, and lead to its settings.
    await page.goto(`${baseUrl}/reviews?projectId=${repositoryId}`);
    const summary = page.getByRole("region", { name: "Feedback on findings" });
    const rules = summary.getByRole("table", { name: "By rule, most marked as noise first" });
    await rules.waitFor();
    expect(await rules.getByRole("row").nth(1).locator("td").allTextContents()).toEqual([
      "secrets/github",
      "Built-in",
      "1",
      "0",
      "1",
    ]);
    expect(await summary.textContent()).toContain("Not posted again1");
    expect(await seriousViolations(page)).toEqual([]);

    // The repository's settings list it, and post it again on request.
    await summary.getByRole("link", { name: "Built In Rules settings" }).click();
    await page.waitForURL(/\/settings\?/);
    const marked = page.getByRole("region", { name: "Findings marked as noise" });
    const entry = marked.getByRole("listitem").filter({ hasText: "secrets/github" });
    await entry.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await entry
      .getByRole("button", { name: /^Post it again: secrets\/github in src\/config\.ts:\d+$/ })
      .click();
    await marked.getByText("No finding is marked as noise in this repository.").waitFor();
    await page.context().close();
  });
});
