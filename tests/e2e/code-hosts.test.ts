/**
 * Connecting code hosts in a real browser against the whole stack (local mode): the sandbox GitHub
 * (through its install page), and Azure DevOps through the fake the global setup runs.
 */

import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, seriousViolations, signedInPage, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
const azureDevOps = inject("azureDevOps");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Where a repository card's settings icon leads. */
async function settingsLinkOf(card: Locator): Promise<URL> {
  return new URL(
    (await card.getByRole("link", { name: /^Settings for / }).getAttribute("href")) ?? "",
    baseUrl,
  );
}

describe("code hosts", () => {
  it("connects the sandbox GitHub, shows its repositories on /home and links to their settings", async () => {
    const page = await signedInPage(browser, stack, "Mary Jackson", "/integrations");
    await page.getByText("Not Connected").first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: /Connect GitHub/ }).click();
    await page.waitForURL(`${baseUrl}/integrations/github`);
    await page.getByText("Sandbox", { exact: true }).waitFor();
    await page
      .getByRole("link", { name: /Connect/ })
      .first()
      .click();
    // The sandbox's stand-in for GitHub's install page, then back to /installation as from GitHub.
    // Its Connect link carries a code the backend signed for this user (decision 027).
    await page.waitForURL(/\/sandbox\/install\?installation_id=sandbox-[0-9a-f]+&code=\d+\.[\w-]+$/);
    await page.getByRole("heading", { name: "Sandbox code host" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Install", exact: true }).click();
    await page.waitForURL(
      /\/installation\?setup_action=install&installation_id=sandbox-[0-9a-f]+&code=\d+\.[\w-]+$/,
    );
    await page
      .getByRole("button", { name: "Back to Home" })
      .or(page.getByRole("link", { name: "Back to Home" }))
      .waitFor({ timeout: 20_000 });
    // The countdown takes the browser home by itself.
    await page.waitForURL(/\/home$/, { timeout: 15_000 });

    const cards = page.getByRole("article");
    await cards.first().waitFor();
    expect(await cards.count()).toBeGreaterThan(0);
    await page.getByText("Sandbox").first().waitFor();
    const settings = await settingsLinkOf(cards.first());
    expect(settings.pathname).toBe("/settings");
    for (const key of ["repositoryId", "integrationKey", "integrationName", "integrationType"]) {
      expect(settings.searchParams.get(key), key).toBeTruthy();
    }
    expect(await seriousViolations(page)).toEqual([]);

    // The integration shows as connected now.
    await page.goto(`${baseUrl}/integrations`);
    await page.getByText("Connected", { exact: true }).first().waitFor();
    // Its own page, opened again, leads on to its repositories' settings.
    await page.goto(`${baseUrl}/integrations/github`);
    await page.getByRole("link", { name: "Settings GitHub" }).click();
    await page.waitForURL(`${baseUrl}/settings?integrationName=github`);
    await page.context().close();
  });

  it("sets Azure DevOps up: required fields, a refused token's message, its hook secret shown once, its repositories imported", async () => {
    const page = await signedInPage(browser, stack, "Katherine Johnson", "/integrations/azure-devops");
    const form = page.getByRole("form", { name: "Azure DevOps settings" });
    await form.waitFor();
    const save = page.getByRole("button", { name: "Save Settings" });

    await save.click();
    await expect.poll(() => page.getByText("This field is required").count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Organization URL").fill(azureDevOps.organizationUrl);
    await page.getByLabel("Project").fill(azureDevOps.project);
    await page.getByLabel("Personal Access Token").fill("not-the-token");
    await save.click();
    // The server's refusal is the toast.
    await page.getByText("The personal access token was refused").waitFor();
    expect(await form.isVisible()).toBe(true);

    await page.getByLabel("Personal Access Token").fill(azureDevOps.personalAccessToken);
    await save.click();
    await page.getByText("is set up for your organization").waitFor({ timeout: 20_000 });

    // The service hook's URL and secret, this once, each with a copy button.
    const secret = page.getByRole("textbox", { name: "Service hook secret" });
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.getByRole("textbox", { name: "Service hook URL" }).inputValue()).toMatch(
      /^https?:\/\/[^/]+\/webhooks\/azure-devops\/[0-9a-f-]{36}$/,
    );
    await page.getByRole("button", { name: "Copy service hook secret" }).waitFor();
    await page.getByRole("button", { name: "Copy service hook URL" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Opened again, the page has the URL and no secret.
    await page.reload();
    await page.getByRole("textbox", { name: "Service hook URL" }).waitFor();
    expect(await page.getByRole("textbox", { name: "Service hook secret" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Settings Azure DevOps" }).getAttribute("href")).toBe(
      "/settings?integrationName=azure-devops",
    );

    // /home lists GitHub's repositories first; its code host choice shows the imported ones.
    await page.goto(`${baseUrl}/home`);
    await waitForHydration(page);
    const codeHost = page.getByRole("navigation", { name: "Code host" });
    expect(await codeHost.getByRole("link", { name: "GitHub" }).getAttribute("aria-current")).toBe("page");
    await codeHost.getByRole("link", { name: "Azure DevOps" }).click();
    await page.waitForURL(`${baseUrl}/home?integrationName=azure-devops`);
    // The address changes as the navigation ends; React renders the new list just after.
    await expect
      .poll(() => codeHost.getByRole("link", { name: "Azure DevOps" }).getAttribute("aria-current"))
      .toBe("page");
    const cards = page.getByRole("article");
    await expect.poll(() => cards.count()).toBe(azureDevOps.repositoryNames.length);
    const shown = (await cards.allInnerTexts()).join("\n");
    for (const name of azureDevOps.repositoryNames) expect(shown).toContain(name);
    expect(await seriousViolations(page)).toEqual([]);
    // A repository's settings link names its code host.
    const settings = await settingsLinkOf(cards.first());
    expect(settings.searchParams.get("integrationName")).toBe("azure-devops");
    await page.context().close();
  });
});
