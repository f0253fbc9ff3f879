/** Debian's Chromium driven by playwright-core, started the way this closed network needs. */
import AxeBuilder from "@axe-core/playwright";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { createEmulatorUser } from "../support/firebase-emulator-users.ts";

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
  // Every page of every context (browser.newPage makes its context through this too) is watched.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on("page", watchForErrors);
    return context;
  };
  return browser;
}

/** What the suite's pages threw or logged as errors, until a test's end takes them (no-browser-errors.ts). */
const browserErrors: string[] = [];

// An answer of 4xx or 5xx is logged by Chromium itself; tests provoke those on purpose and check
// what the page shows instead.
const REFUSED_CALL = /^Failed to load resource: the server responded with a status of \d{3}/;

function watchForErrors(page: Page): void {
  page.on("pageerror", (error) => browserErrors.push(`${page.url()}: uncaught ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !REFUSED_CALL.test(message.text())) {
      browserErrors.push(`${page.url()}: ${message.text()}`);
    }
  });
}

/** The errors the pages reported since the last call; a test that provokes one takes it itself. */
export function takeBrowserErrors(): string[] {
  return browserErrors.splice(0);
}

/**
 * axe's serious and critical findings on the page, one line each (empty when there are none), in
 * the light and the dark colour scheme: each has its own palette, and a contrast can fail in one only.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Colours mid-transition (a toast fading in, or out while axe reads the page) are not what anyone
  // reads. With reduced motion, as a visitor may ask for, the app and its toasts change state at
  // once, so axe sees each element either as it is shown or not at all.
  const found: string[] = [];
  try {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ reducedMotion: "reduce", colorScheme });
      // A scheme change starts the colours' transitions (0.01 ms under reduced motion) at the next
      // style computation; two frames later they have ended, and axe reads the scheme's colours.
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      const results = await new AxeBuilder({ page }).analyze();
      found.push(
        ...results.violations
          .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
          .map(
            (violation) =>
              `${colorScheme}: ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
          ),
      );
    }
  } finally {
    await page.emulateMedia({ reducedMotion: null, colorScheme: null });
  }
  return found;
}

/**
 * A new verified email-and-password account in the emulator for `name`, at an address of its own
 * ("Grace Hopper" → grace-<now>@example.com).
 */
export async function verifiedAccount(
  stack: { emulatorHost: string; projectId: string },
  name: string,
  password = "Sandbox-Pass-1!",
): Promise<{ email: string; password: string }> {
  const email = `${name.split(" ")[0]?.toLowerCase()}-${Date.now()}@example.com`;
  await createEmulatorUser(stack.emulatorHost, stack.projectId, {
    email,
    password,
    displayName: name,
    emailVerified: true,
  });
  return { email, password };
}

/** A new verified user, signed in through the form in a context of its own; the page then sits on `path`. */
export async function signedInPage(
  browser: Browser,
  stack: { baseUrl: string; emulatorHost: string; projectId: string },
  name: string,
  path: string,
): Promise<Page> {
  const { email, password } = await verifiedAccount(stack, name);
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${stack.baseUrl}${path}`, { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in with Email" }).click();
  await page.waitForURL(`${stack.baseUrl}${path}`, { timeout: 20_000 });
  return page;
}

/**
 * Connects the sandbox GitHub the way a user does, from a page on /integrations/github: its
 * Connect link, the sandbox's stand-in for GitHub's install page, and back; the page then sits on /home.
 */
export async function connectSandbox(page: Page): Promise<void> {
  await page
    .getByRole("link", { name: /Connect/ })
    .first()
    .click();
  await page.waitForURL(/\/sandbox\/install\?installation_id=sandbox-/);
  await page.getByRole("link", { name: "Install", exact: true }).click();
  await page.waitForURL(/\/home$/, { timeout: 30_000 });
  await waitForHydration(page);
}

/** From /home once the sandbox is connected: the first sandbox repository's pull requests page. */
export async function openSandboxPulls(page: Page): Promise<void> {
  await page
    .getByRole("link", { name: /^Pull requests of .* \(sandbox\)$/ })
    .first()
    .click();
  await page.waitForURL(/\/sandbox\/repositories\/[^/]+\/pulls$/);
  await waitForHydration(page);
}

/**
 * A page reached by a full load (an unhydrated link click, a redirect) shows its buttons before
 * their handlers exist; a click then does nothing. The root marks the document once hydrated.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
}

/** The rendered height of an element in CSS pixels (for controls that must line up in a row). */
export async function heightOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`not rendered: ${locator}`);
  return box.height;
}

/**
 * From a sandbox repository's pull requests page: opens the leaked-key template as a pull request
 * and waits for Argus's review comment on it, which it answers.
 */
export async function openLeakedKeyPull(page: Page): Promise<Locator> {
  await page
    .getByRole("button", { name: "Open pull request: Add the GitHub client token to the config" })
    .click();
  await page.waitForURL(/\/sandbox\/pulls\/[^/]+$/);
  const comment = page.getByRole("article", { name: /^Review comment on src\/config\.ts line \d+$/ });
  await comment.waitFor({ timeout: 30_000 });
  return comment;
}
