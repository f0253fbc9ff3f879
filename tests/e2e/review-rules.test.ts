/**
 * The rule engine seen in the browser (docs/decisions/033): a sandbox pull request's finding on
 * the run page names its kind of flaw, its CWE id (linked to MITRE) and its fix, the decision log
 * says which rules ran and that the team rules were read (every sample repository carries one); the
 * repository's settings list the rule families with a switch each and the team rule the review read.
 * Every page passes axe.
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

describe("the rule engine on the review and settings pages", () => {
  it("shows a finding's CWE and fix, the rules that ran, and the repository's rule families and team rules", async () => {
    const page = await signedInPage(browser, stack, "Frances Allen", "/integrations/github");
    await connectSandbox(page);
    // The repository whose pull request is opened, to find its settings afterwards.
    const pullsLink = page.getByRole("link", { name: /^Pull requests of .* \(sandbox\)$/ }).first();
    const title = /^Pull requests of (.*) \(sandbox\)$/.exec(
      (await pullsLink.getAttribute("aria-label")) ?? "",
    )?.[1];
    await openSandboxPulls(page);
    const comment = await openLeakedKeyPull(page);
    // The posted comment names the weakness and the fix too.
    expect(await comment.textContent()).toContain("CWE-798");
    expect(await comment.textContent()).toContain("Fix:");

    await page.getByRole("link", { name: "See its decision log" }).click();
    await page.waitForURL(/\/reviews\/[^/]+$/);
    const findings = page.getByRole("region", { name: "Findings" });
    await findings.getByText("secrets/github").waitFor();
    const cwe = findings.getByRole("link", { name: /^CWE-798/ });
    expect(await cwe.getAttribute("href")).toBe("https://cwe.mitre.org/data/definitions/798.html");
    expect(await findings.textContent()).toContain("Security");
    expect(await findings.textContent()).toContain("Fix: Revoke it now");
    const log = page.getByRole("region", { name: "Decision log" });
    // The timeline names each step and its outcome in words (the team rules: read; the rules: ran).
    expect(await log.textContent()).toContain("Team rulesRead");
    expect(await log.textContent()).toContain("Rule engineRan");
    expect(await seriousViolations(page)).toEqual([]);

    // The repository's settings: its rule families and the team rules the review read.
    await page.goto(`${baseUrl}/home`);
    await page.getByRole("link", { name: `Settings for ${title}`, exact: true }).click();
    await page.getByRole("heading", { name: "Repository Settings" }).waitFor();
    await page.getByRole("tab", { name: "Built In Rules" }).click();
    const sql = page.getByRole("switch", { name: "SQL injection", exact: true });
    await sql.waitFor();
    expect(await sql.getAttribute("aria-checked")).toBe("true");
    const team = page.getByRole("region", { name: "Team rules" });
    await team.getByText("config-from-env").waitFor();
    expect(await team.textContent()).toMatch(/Read from \.argus\/rules at [0-9a-f]{7} by the latest review/);
    expect(await team.textContent()).toContain(".argus/rules/conventions.yml");
    expect(await seriousViolations(page)).toEqual([]);

    // Turned off for the repository, and still off after a reload.
    await sql.click();
    await page.getByText("Repository setting updated successfully").waitFor();
    await page.reload();
    await page.getByRole("tab", { name: "Built In Rules" }).click();
    const reloaded = page.getByRole("switch", { name: "SQL injection", exact: true });
    await reloaded.waitFor();
    expect(await reloaded.getAttribute("aria-checked")).toBe("false");
    await page.context().close();
  });
});
