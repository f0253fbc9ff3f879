/** Connecting the sandbox code host in a real browser against the whole stack (local mode). */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEmulatorUser } from "../support/firebase-emulator-users.ts";
import { launchBrowser, seriousViolations } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const emulatorHost = inject("emulatorHost");
const projectId = inject("projectId");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("code hosts", () => {
  it("connects the sandbox GitHub, shows its repositories on /home and links to their settings", async () => {
    const email = `mary-${Date.now()}@example.com`;
    const password = "Sandbox-Pass-1!";
    await createEmulatorUser(emulatorHost, projectId, {
      email,
      password,
      displayName: "Mary Jackson",
      emailVerified: true,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/integrations`, { waitUntil: "networkidle" });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL(`${baseUrl}/integrations`, { timeout: 20_000 });
    await page.getByText("Not Connected").first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: /Connect GitHub/ }).click();
    await page.waitForURL(`${baseUrl}/integrations/github`);
    await page
      .getByRole("link", { name: /Connect/ })
      .first()
      .click();
    await page.waitForURL(/\/installation\?/);
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
    const settings = new URL(
      (await cards
        .first()
        .getByRole("link", { name: /^Settings for / })
        .getAttribute("href")) ?? "",
      baseUrl,
    );
    expect(settings.pathname).toBe("/settings");
    for (const key of ["repositoryId", "integrationKey", "integrationName", "integrationType"]) {
      expect(settings.searchParams.get(key), key).toBeTruthy();
    }
    expect(await seriousViolations(page)).toEqual([]);

    // The integration shows as connected now.
    await page.goto(`${baseUrl}/integrations`);
    await page.getByText("Connected", { exact: true }).first().waitFor();
    await context.close();
  });
});
