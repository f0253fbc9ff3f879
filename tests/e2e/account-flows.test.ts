/**
 * The account screens in Chromium against the whole stack (production bundle, Firebase Auth
 * emulator, backend, gateway).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEmulatorUser, latestOobCode } from "../support/firebase-emulator-users.ts";
import { launchBrowser, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const emulatorHost = inject("emulatorHost");
const projectId = inject("projectId");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in with Email" }).click();
}

/** Polls the emulator: the e-mail is sent by the backend, a moment after the page's answer. */
async function oobCode(email: string, type: "VERIFY_EMAIL" | "PASSWORD_RESET"): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const code = await latestOobCode(emulatorHost, projectId, email, type);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no ${type} code for ${email}`);
}

describe("account screens", () => {
  it("keeps a protected deep link with its query through the sign-in round trip", async () => {
    const email = `deep-${Date.now()}@example.com`;
    const password = "Deep-Link-Pass-1!";
    await createEmulatorUser(emulatorHost, projectId, {
      email,
      password,
      displayName: "Deep Link",
      emailVerified: true,
    });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/home?tab=x`);
    const login = new URL(page.url());
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("redirectTo")).toBe("/home?tab=x");

    await signIn(page, email, password);
    await page.waitForURL(`${baseUrl}/home?tab=x`, { timeout: 20_000 });
    await page.getByText("Deep Link").first().waitFor();
    await page.close();
  });

  it("says so when no account has the e-mail address", async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await waitForHydration(page);
    await signIn(page, `nobody-${Date.now()}@example.com`, "Any-Password-1!");
    await page
      .getByRole("alert")
      .filter({ hasText: /No account found with this email|Invalid email or password/ })
      .waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.close();
  });

  it("shows the login callback's message when the URL has no code", async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/oauth/callback/github`);
    await page.getByRole("alert").filter({ hasText: "No code or provider found in callback URL." }).waitFor();
    expect(await page.getByRole("link", { name: "Retry Login" }).getAttribute("href")).toBe("/login");
    await page.close();
  });

  it("posts the callback's code and shows the outcome: here GitHub sign-in is not configured", async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/oauth/callback/github?code=abc123`);
    await page.getByRole("alert").filter({ hasText: "Something went wrong. Please try again." }).waitFor();
    expect(await page.getByRole("link", { name: "Retry Login" }).getAttribute("href")).toBe("/login");
    // An unknown provider is not signed in either.
    await page.goto(`${baseUrl}/oauth/callback/gitlab?code=abc123`);
    await page.getByRole("alert").filter({ hasText: "Something went wrong. Please try again." }).waitFor();
    await page.close();
  });

  it("says a verification link without a code is invalid", async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/email-verified?mode=verifyEmail`);
    await page.getByRole("alert").filter({ hasText: "Invalid verification link" }).waitFor();
    await page.close();
  });

  it("signs up by e-mail, verifies the address, signs in, stays signed in across a reload and signs out", async () => {
    const email = `signup-${Date.now()}@example.com`;
    const password = "Sign-Up-Pass-1!";
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/signup`);
    await waitForHydration(page);
    await page.getByLabel("Name").fill("Katherine Johnson");
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Business Email Address").fill(email);
    await page.getByLabel("Company").fill("Langley");
    await page.getByLabel("How did you hear about us?").selectOption("colleague");
    await page.getByRole("button", { name: "Create Account" }).click();

    await page.getByRole("heading", { name: "Check Your Email" }).waitFor({ timeout: 20_000 });
    await page.getByText(email).waitFor();

    await page.goto(
      `${baseUrl}/email-verified?mode=verifyEmail&oobCode=${await oobCode(email, "VERIFY_EMAIL")}`,
    );
    await page
      .getByText("Your email has been verified. You can sign in now.")
      .first()
      .waitFor({ timeout: 10_000 });
    await page.waitForURL(`${baseUrl}/login`, { timeout: 10_000 });
    await page
      .getByRole("status")
      .filter({ hasText: "Your email has been verified. You can sign in now." })
      .waitFor();

    await signIn(page, email, password);
    await page.waitForURL(/\/home$/, { timeout: 20_000 });
    await page.getByText("Katherine Johnson").first().waitFor();
    await page.reload();
    expect(new URL(page.url()).pathname).toBe("/home");
    await page.getByText("Katherine Johnson").first().waitFor();

    await page.getByRole("button", { name: /Katherine Johnson/ }).click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL(/\/login/, { timeout: 10_000 });
    await page.close();
  });

  it("resets a forgotten password with the code from the e-mail and signs in with the new one", async () => {
    const email = `reset-${Date.now()}@example.com`;
    await createEmulatorUser(emulatorHost, projectId, {
      email,
      password: "Old-Password-1!",
      displayName: "Dorothy Vaughan",
      emailVerified: true,
    });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole("link", { name: "Forgot Password" }).click();
    await page.waitForURL(`${baseUrl}/forgot-password`);
    // A link clicked before /login hydrates is a full page load: the form acts once hydrated.
    await waitForHydration(page);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByRole("link", { name: "Back to Login" }).first().waitFor();
    await page.getByRole("status").first().waitFor({ timeout: 10_000 });

    const newPassword = "Fresh-Secret-2!";
    const resetLink = `${baseUrl}/reset-password?mode=resetPassword&oobCode=${await oobCode(email, "PASSWORD_RESET")}`;
    await page.goto(resetLink);
    await waitForHydration(page);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.waitForURL(`${baseUrl}/login`, { timeout: 10_000 });
    await page
      .getByRole("status")
      .filter({ hasText: "Your password has been reset. Sign in with your new password." })
      .waitFor();

    // The used link no longer shows the form: it says so, with a way to ask for a new one.
    await page.goto(resetLink);
    await page.getByRole("alert").filter({ hasText: "invalid or has expired" }).waitFor();
    await page.getByRole("link", { name: "Request a new link" }).waitFor();
    expect(await page.getByLabel("New password", { exact: true }).count()).toBe(0);

    await page.goto(`${baseUrl}/login`);
    await waitForHydration(page);
    await signIn(page, email, newPassword);
    await page.waitForURL(/\/home$/, { timeout: 20_000 });
    await page.getByText("Dorothy Vaughan").first().waitFor();
    await page.close();
  });

  it("signs up and signs in with GitHub through the emulator's fake GitHub provider", async () => {
    const login = `grace-${Date.now()}`;
    const email = `${login}@example.com`;
    const continueAsGitHub = async (page: Page, button: string) => {
      await page.getByRole("button", { name: button }).click();
      const dialog = page.getByRole("dialog", { name: "GitHub in local mode" });
      await dialog.getByLabel("GitHub e-mail").fill(email);
      await dialog.getByLabel("Name", { exact: true }).fill("Grace Hopper");
      await dialog.getByLabel("GitHub username").fill(login);
      await dialog.getByRole("button", { name: "Continue" }).click();
    };

    const page = await browser.newPage();
    await page.goto(`${baseUrl}/signup`, { waitUntil: "networkidle" });
    await continueAsGitHub(page, "Sign up with GitHub");
    await page.getByText("Account created successfully! Welcome!").first().waitFor();
    await page.waitForURL(/\/home$/, { timeout: 20_000 });
    await page.getByText("Grace Hopper").first().waitFor();

    await page.getByRole("button", { name: /Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL(/\/login/, { timeout: 10_000 });
    await page.waitForLoadState("networkidle");
    await continueAsGitHub(page, "Sign in with GitHub");
    await page.waitForURL(/\/home$/, { timeout: 20_000 });
    await page.getByText("Grace Hopper").first().waitFor();
    await page.close();
  });
});
