/**
 * A session ended in another tab: the next client navigation or call of this tab leads to sign-in,
 * remembering the page (never a data URL), and signing in returns there.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEXT } from "../../shared/contract/accounts.ts";
import { launchBrowser, verifiedAccount, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const emulator = { emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
const PASSWORD = "Correct-Horse-9!";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Two tabs of one browser, signed in as a new user, both on /home. */
async function twoTabs(name: string) {
  const { email } = await verifiedAccount(emulator, name, PASSWORD);
  const context = await browser.newContext();
  const tabA = await context.newPage();
  await tabA.goto(`${baseUrl}/login`);
  await waitForHydration(tabA);
  await signIn(tabA, email);
  await tabA.waitForURL(`${baseUrl}/home`, { timeout: 20_000 });
  const tabB = await context.newPage();
  await tabB.goto(`${baseUrl}/home`);
  await waitForHydration(tabB);
  return { context, tabA, tabB, email };
}

async function signIn(page: Page, email: string) {
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in with Email" }).click();
}

async function signOutIn(tab: Page, name: RegExp) {
  await waitForHydration(tab);
  await tab.getByRole("button", { name }).click();
  await tab.getByRole("button", { name: TEXT.signOut }).click();
  await tab.waitForURL(/\/login/);
}

describe("a session ended in another tab", () => {
  it("sends a client navigation to sign-in with the page to return to, and sign-in returns there", async () => {
    const { context, tabA, tabB, email } = await twoTabs("Mary Jackson");
    await signOutIn(tabA, /Mary Jackson/);

    await tabB.getByRole("navigation").getByRole("link", { name: "Subscriptions" }).click();
    await tabB.waitForURL(/\/login/, { timeout: 10_000 });
    expect(new URL(tabB.url()).search).toBe("?redirectTo=%2Fsubscriptions");

    await signIn(tabB, email);
    await tabB.waitForURL(`${baseUrl}/subscriptions`, { timeout: 20_000 });
    await context.close();
  });

  it("sends an action that finds the session gone to sign-in, remembering the page", async () => {
    const { context, tabA, tabB, email } = await twoTabs("Annie Easley");
    await tabB.getByRole("button", { name: /Annie Easley/ }).click();
    await tabB.getByRole("dialog", { name: "Account" }).getByRole("button", { name: "Edit name" }).click();
    const dialog = tabB.getByRole("dialog", { name: "Edit name" });
    await dialog.getByLabel("Name").fill("Annie J. Easley");

    await signOutIn(tabA, /Annie Easley/);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await tabB.waitForURL(/\/login/, { timeout: 10_000 });
    expect(new URL(tabB.url()).search).toBe("?redirectTo=%2Fhome");

    await signIn(tabB, email);
    await tabB.waitForURL(`${baseUrl}/home`, { timeout: 20_000 });
    await context.close();
  });
});
