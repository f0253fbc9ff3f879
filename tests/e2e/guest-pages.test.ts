/**
 * Guest pages served from memory (docs/decisions/043-guest-pages-rendered-once.md) run in the
 * browser under their CSP, which names their inline scripts' hashes instead of a nonce: they
 * hydrate, the sign-in form works, and no script is refused, while one added later is.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, takeBrowserErrors, verifiedAccount, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const emulator = { emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** CSP reports from the console and from the document's securitypolicyviolation events. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      // zod asks once whether it may compile its parsers with Function() and, refused (the CSP has
      // no 'unsafe-eval'), parses without: that refusal is the policy working, not a page script.
      if (event.blockedURI === "eval") return;
      seen.push(`${event.violatedDirective}: ${event.blockedURI || "inline"} from ${event.sourceFile}`);
    });
  });
  return async () => [
    ...consoleErrors,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)),
  ];
}

describe("guest pages rendered once", () => {
  it("hydrates the cached /login under its hash CSP and signs in to the page asked for", async () => {
    const { email, password } = await verifiedAccount(emulator, "Ada Lovelace");
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations = await watchCsp(page);

    // A first visitor has the page rendered into memory; this one gets the copy.
    await page.request.get(`${baseUrl}/login`);
    const response = await page.goto(`${baseUrl}/login?redirectTo=%2Freviews`);
    expect(response?.status()).toBe(200);
    const csp = (await response?.allHeaders())?.["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/);
    expect(csp).not.toContain("nonce-");
    expect(response?.headers().etag).toBeTruthy();

    await waitForHydration(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL(`${baseUrl}/reviews`, { timeout: 20_000 });
    expect(await violations()).toEqual([]);

    // Signed in, /login is no longer the cached copy: the server sends the user home.
    const again = await page.goto(`${baseUrl}/login`);
    expect(new URL(page.url()).pathname).toBe("/home");
    expect((await again?.allHeaders())?.["content-security-policy"]).toMatch(/'nonce-/);
    await context.close();
  });

  it("hydrates every guest page with no script refused, and refuses one injected later", async () => {
    const context = await browser.newContext();
    for (const path of ["/signup", "/forgot-password", "/reset-password", "/email-verified"]) {
      const page = await context.newPage();
      const violations = await watchCsp(page);
      const response = await page.goto(`${baseUrl}${path}`);
      expect(response?.status(), path).toBe(200);
      expect((await response?.allHeaders())?.["content-security-policy"], path).toContain("'sha256-");
      await waitForHydration(page);
      expect(await violations(), path).toEqual([]);
      await page.close();
    }

    // The policy is in force: an inline script that is not one of the page's own does not run.
    const page = await context.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${baseUrl}/login`);
    await waitForHydration(page);
    const ran = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true;";
      document.body.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(violations).toContainEqual(expect.stringMatching(/^script-src/));
    // Chromium reports the refusal on the console too; it is the one error of this test.
    expect(takeBrowserErrors()).toEqual([expect.stringMatching(/Content Security Policy/)]);
    await context.close();
  });
});
