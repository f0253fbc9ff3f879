/** The name edit dialogs of the signed-in layout, in a real browser against the whole stack. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EDITABLE_NAME_MAX } from "../../shared/constants.ts";
import { launchBrowser, seriousViolations, verifiedAccount, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const emulator = { emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function openEditDialog(page: Page, menuName: RegExp, action: string) {
  await page.getByRole("button", { name: menuName }).click();
  await page.getByRole("dialog", { name: "Account" }).getByRole("button", { name: action }).click();
  const dialog = page.getByRole("dialog", { name: action });
  await dialog.waitFor();
  return dialog;
}

describe("editing names from the user menu", () => {
  it("renames the user and the organisation, shows them at once and after a reload", async () => {
    const { email, password } = await verifiedAccount(emulator, "Katherine Johnson");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.getByRole("button", { name: /Katherine Johnson/ }).waitFor({ timeout: 20_000 });

    // The user name: the limit first, then a real name.
    let dialog = await openEditDialog(page, /Katherine Johnson/, "Edit name");
    const field = dialog.getByLabel("Name");
    expect(await field.inputValue()).toBe("Katherine Johnson");
    expect(await seriousViolations(page)).toEqual([]);
    await field.fill("");
    await field.pressSequentially("k".repeat(EDITABLE_NAME_MAX + 5));
    expect((await field.inputValue()).length).toBe(EDITABLE_NAME_MAX);
    await dialog.getByText("Character limit reached").waitFor();

    await field.fill("Katherine G. Johnson");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("Name updated").waitFor({ timeout: 10_000 });
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: /Katherine G\. Johnson/ }).waitFor();

    // The organisation name, from the same menu; the sidebar shows it at once.
    dialog = await openEditDialog(page, /Katherine G\. Johnson/, "Edit organization name");
    await dialog.getByLabel("Organization name").fill("Flight Research Division");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("Organization name updated").waitFor({ timeout: 10_000 });
    await page.getByRole("complementary").getByText("Flight Research Division").waitFor();

    // A reload renders both from the renewed session cookie.
    await page.reload();
    await page.getByRole("button", { name: /Katherine G\. Johnson/ }).waitFor();
    await page.getByRole("complementary").getByText("Flight Research Division").waitFor();
    const html = await (await page.request.get(`${baseUrl}/home`)).text();
    expect(html).toContain("Katherine G. Johnson");
    expect(html).toContain("Flight Research Division");
    await context.close();
  });

  it("shows names changed in one browser in another signed-in browser after a reload", async () => {
    const { email, password } = await verifiedAccount(emulator, "Dorothy Vaughan");
    const signIn = async () => {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${baseUrl}/login`);
      await waitForHydration(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in with Email" }).click();
      await page.getByRole("button", { name: /Dorothy Vaughan/ }).waitFor({ timeout: 20_000 });
      return page;
    };
    const renaming = await signIn();
    const other = await signIn();

    let dialog = await openEditDialog(renaming, /Dorothy Vaughan/, "Edit name");
    await dialog.getByLabel("Name").fill("Dorothy J. Vaughan");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await renaming.getByText("Name updated").waitFor({ timeout: 10_000 });
    dialog = await openEditDialog(renaming, /Dorothy J\. Vaughan/, "Edit organization name");
    await dialog.getByLabel("Organization name").fill("West Area Computing");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await renaming.getByText("Organization name updated").waitFor({ timeout: 10_000 });

    // The other browser's cookie was minted before the renames; a reload shows the new names.
    await other.reload();
    await other.getByRole("button", { name: /Dorothy J\. Vaughan/ }).waitFor({ timeout: 10_000 });
    await other.getByRole("complementary").getByText("West Area Computing").waitFor();
    await renaming.context().close();
    await other.context().close();
  });
});
