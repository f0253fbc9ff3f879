import type { Browser, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FIREBASE_SDK_MARK, VALIBOT_MARK } from "../support/bundle-marks.ts";
import { launchBrowser, seriousViolations, verifiedAccount, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const emulator = { emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("signing in with email and password", () => {
  it("sends a guest to /login, signs in through the real page and shows /home with the user's name", async () => {
    const { email, password } = await verifiedAccount(emulator, "Grace Hopper");

    const context = await browser.newContext();
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text()))
        cspErrors.push(message.text());
    });

    const first = await page.goto(`${baseUrl}/home`);
    expect(first?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/home");
    await expect(page.getByRole("heading", { name: "Welcome" }).isVisible()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in with Email" }).click();

    await page.waitForURL(`${baseUrl}/home`, { timeout: 20_000 });
    await page.getByText("Grace Hopper").first().waitFor();
    await page.getByText("No projects found").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The session lives in an HttpOnly cookie that page scripts cannot read.
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === "auth_token");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Strict");
    expect(await page.evaluate(() => document.cookie)).not.toContain("auth_token");

    // A reload is rendered on the server with the user's name already in the HTML.
    const reload = await page.request.get(`${baseUrl}/home`);
    expect(await reload.text()).toContain("Grace Hopper");
    expect(cspErrors).toEqual([]);

    await page.getByRole("button", { name: /Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL(/\/login/, { timeout: 10_000 });
    const afterLogout = await page.request.get(`${baseUrl}/home`, { maxRedirects: 0 });
    expect(afterLogout.status()).toBe(302);
    await context.close();
  });

  it("shows the identity service's message for a wrong password and stays on /login", async () => {
    const { email } = await verifiedAccount(emulator, "Alan Turing", "Right-Password-1!");
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("Wrong-Password-1!");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    const alert = page.getByRole("alert").filter({ hasText: /Invalid/ });
    await alert.first().waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.close();
  });

  it("fetches the sign-in code (the Firebase SDK) only once the visitor focuses the e-mail field, and no schemas at all", async () => {
    const page = await browser.newPage();
    const scripts: Promise<string>[] = [];
    const collect = (response: Response) => {
      if (response.url().endsWith(".js")) scripts.push(response.text());
    };
    page.on("response", collect);
    await page.goto(`${baseUrl}/login`, { waitUntil: "networkidle" });
    // Only the first load is collected: bodies still being read when the page closes would reject.
    page.off("response", collect);
    const firstLoad = await Promise.all(scripts);
    expect(firstLoad.length).toBeGreaterThan(0);
    for (const mark of [FIREBASE_SDK_MARK, VALIBOT_MARK]) {
      expect(firstLoad.filter((body) => body.includes(mark))).toEqual([]);
    }

    const sdk = page.waitForResponse(
      async (response) =>
        response.url().endsWith(".js") && (await response.text().catch(() => "")).includes(FIREBASE_SDK_MARK),
      { timeout: 10_000 },
    );
    await page.getByLabel("Email").focus();
    await sdk;
    await page.waitForLoadState("networkidle");
    await page.close();
  });
});
