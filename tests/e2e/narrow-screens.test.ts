/**
 * The product on a phone (390 × 844) and on a desktop (1280 wide), against the whole stack (local
 * mode): no signed-in page scrolls sideways, wide tables scroll inside their own labelled,
 * focusable container with a hint, long texts wrap or truncate, the Reviews table's rows open their
 * run, and axe finds nothing serious on the pages a newcomer visits first
 * (docs/decisions/037-narrow-screens.md).
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SCROLL_HINT } from "../../client/components/ui/scroll-region.tsx";
import { CONTRIBUTOR_MESSAGES } from "../../shared/contract/contributors.ts";
import { SANDBOX_ACTIVE_PEOPLE, SANDBOX_PEOPLE } from "../../shared/sandbox-samples.ts";
import {
  connectSandbox,
  launchBrowser,
  openLeakedKeyPull,
  openSandboxPulls,
  seriousViolations,
  signedInPage,
  waitForHydration,
} from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
let browser: Browser;

/**
 * How far the page scrolls sideways, and, when it does, the innermost elements reaching past the
 * viewport's right edge (to name the culprit in a failure).
 */
function sidewaysOverflow(page: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrollWidth = document.scrollingElement?.scrollWidth ?? 0;
    if (scrollWidth <= width) return { scrollWidth, culprits: [] };
    const past = [...document.querySelectorAll("body *")].filter(
      (element) => element.getBoundingClientRect().right > width + 0.5,
    );
    const innermost = past.filter(
      (element) => !past.some((other) => other !== element && element.contains(other)),
    );
    return {
      scrollWidth,
      culprits: innermost.slice(0, 5).map((element) => {
        const name = element.tagName.toLowerCase();
        const text = (element.textContent ?? "").trim().slice(0, 40);
        return `${name}.${[...element.classList].slice(0, 4).join(".")} "${text}"`;
      }),
    };
  });
}

/**
 * Controls that reach past the right edge of the page's content (inside <main>'s padding), outside
 * any container that scrolls or clips them: the page does not scroll sideways, but the control sits
 * in the gutter or is cut at the screen's edge.
 */
function controlsPastContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const main = document.querySelector("main");
    if (!main) return [];
    const edge = main.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(main).paddingRight);
    const clipped = (element: Element) => {
      for (let node = element.parentElement; node && node !== main; node = node.parentElement) {
        if (getComputedStyle(node).overflowX !== "visible") return true;
      }
      return false;
    };
    return [...main.querySelectorAll("a, button, input, select, textarea")]
      .filter((control) => {
        const { right, width } = control.getBoundingClientRect();
        return width > 0 && right > edge + 0.5 && !clipped(control);
      })
      .map(
        (control) =>
          `${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute("aria-label") || "").trim().slice(0, 40)}"`,
      );
  });
}

/** Loads `path` and waits until its streamed and lazily loaded parts are on screen. */
async function load(page: Page, path: string): Promise<void> {
  const response = await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
  // An error page (a 404) is measured as the server rendered it; it does not hydrate.
  if ((response?.status() ?? 200) >= 400) return;
  await waitForHydration(page).catch((error: unknown) => {
    throw new Error(`${path} did not hydrate`, { cause: error });
  });
  if (path === "/subscriptions")
    await page
      .getByRole("table", { name: "Contributors" })
      .waitFor()
      .catch(async (error: unknown) => {
        // Says which state the page stayed in: a skeleton, a failed load, or something else.
        const shown = await page.locator("main").textContent();
        throw new Error(`/subscriptions showed no contributors table, but: ${shown}`, { cause: error });
      });
  if (path === "/home") await page.getByRole("article").first().waitFor();
}

/** How many lines the element's text is laid out on. */
function linesOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
}

/**
 * The parts of a repository name (split at spaces and "/": owner, name) that the layout breaks
 * across lines; "design-" on one line and "system" on the next is a broken name.
 */
function brokenWords(element: Locator): Promise<string[]> {
  return element.evaluate((heading) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/[^\s/]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

let page: Page;
let pullPath = "";
let runPath = "";
let pullsPath = "";

beforeAll(async () => {
  browser = await launchBrowser();
  // One organisation with the sandbox connected, a pull request and its review run.
  page = await signedInPage(browser, stack, "Katherine Johnson", "/integrations/github");
  await connectSandbox(page);
  await openSandboxPulls(page);
  pullsPath = new URL(page.url()).pathname;
  await openLeakedKeyPull(page);
  pullPath = new URL(page.url()).pathname;
  await page.getByRole("link", { name: "See its decision log" }).click();
  await page.waitForURL(/\/reviews\/[^/]+$/);
  runPath = new URL(page.url()).pathname;
  await page.setViewportSize(PHONE);
});
afterAll(() => browser?.close());

describe("on a phone", () => {
  it("no signed-in page scrolls sideways at 390 px", async () => {
    const routes = [
      "/home",
      "/integrations",
      "/integrations/github",
      "/integrations/azure-devops",
      "/settings",
      "/settings/ai-model",
      pullsPath,
      pullPath,
      "/reviews",
      runPath,
      "/subscriptions",
      "/payment-success?session_id=cs_unknown",
      "/payment-cancel",
      "/sandbox/checkout?session_id=cs_unknown",
      "/sandbox/portal",
      "/sandbox/install?installation_id=sandbox-0&code=0.x",
      "/installation?setup_action=install",
    ];
    const overflowing: string[] = [];
    for (const path of routes) {
      await load(page, path);
      const { scrollWidth, culprits } = await sidewaysOverflow(page);
      if (scrollWidth > PHONE.width) overflowing.push(`${path}: ${scrollWidth} px, ${culprits.join("; ")}`);
      const past = await controlsPastContent(page);
      if (past.length > 0) overflowing.push(`${path}: past the content's edge: ${past.join("; ")}`);
    }
    expect(overflowing).toEqual([]);
  });

  it("the sandbox checkout of a real upgrade does not scroll sideways at 390 px", async () => {
    await load(page, "/subscriptions");
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    await page
      .getByRole("dialog", { name: "Upgrade to Pro" })
      .getByRole("button", { name: "Continue to Checkout" })
      .click();
    await page.waitForURL(/\/sandbox\/checkout\?session_id=/);
    await page.getByRole("heading", { name: "Sandbox checkout" }).waitFor();
    const { scrollWidth, culprits } = await sidewaysOverflow(page);
    expect(scrollWidth, culprits.join("; ")).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await page.waitForURL(/\/payment-cancel/);
  });

  it("no page a guest sees scrolls sideways at 390 px", async () => {
    const guest = await (await browser.newContext({ viewport: PHONE })).newPage();
    const overflowing: string[] = [];
    for (const path of [
      "/login",
      "/signup",
      "/forgot-password",
      "/reset-password",
      "/email-verified",
      "/outbox",
    ]) {
      await load(guest, path);
      const { scrollWidth, culprits } = await sidewaysOverflow(guest);
      if (scrollWidth > PHONE.width) overflowing.push(`${path}: ${scrollWidth} px, ${culprits.join("; ")}`);
    }
    await guest.context().close();
    expect(overflowing).toEqual([]);
  });

  it("the contributors table scrolls in its own labelled, focusable container that says so", async () => {
    await load(page, "/subscriptions");
    const scroller = page.getByRole("region", { name: "Contributors table", exact: true });
    expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await page.getByText(SCROLL_HINT).waitFor();
    // A keyboard user reaches it and scrolls it with the arrow keys.
    await scroller.focus();
    expect(await scroller.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

    // On a desktop it fits: no hint, no landmark, no stop in the tab order.
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => page.getByText(SCROLL_HINT).count()).toBe(0);
    expect(await scroller.count()).toBe(0);
    const table = page.getByRole("table", { name: "Contributors" });
    expect(await table.evaluate((element) => element.parentElement?.tabIndex)).toBe(-1);
    await page.setViewportSize(PHONE);
  });

  it("Add Contributor offers the sandbox's people in a combobox, and adds one", async () => {
    await load(page, "/subscriptions");
    await page.getByRole("button", { name: "Add Contributor" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Contributor" });
    const field = dialog.getByRole("combobox", { name: "GitHub username" });
    await field.waitFor();
    const offered = await field.evaluate((input) =>
      [...((input as HTMLInputElement).list?.options ?? [])].map((option) => option.value),
    );
    // Everyone the sandbox knows but the people connecting it imported.
    expect(offered).toHaveLength(SANDBOX_PEOPLE.length - SANDBOX_ACTIVE_PEOPLE);
    const someone = SANDBOX_PEOPLE.find((person) => person.login === offered[0]);
    await field.fill(someone?.login ?? "");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByText(CONTRIBUTOR_MESSAGES.added).waitFor();
    await page.getByRole("cell", { name: someone?.name ?? "", exact: true }).waitFor();
  });

  it("axe finds nothing serious on the run, the sandbox pull request and /subscriptions", async () => {
    const found: string[] = [];
    for (const path of [runPath, pullPath, "/subscriptions"]) {
      await load(page, path);
      for (const violation of await seriousViolations(page)) found.push(`${path}: ${violation}`);
    }
    expect(found).toEqual([]);
  });

  it("a review run's row opens the run, its hidden columns are on the run's page", async () => {
    await load(page, "/reviews");
    const table = page.getByRole("table", { name: "Review runs, newest first" });
    // Columns that do not fit a phone are left out of the table here...
    expect(await table.getByRole("columnheader", { name: "Queued" }).isVisible()).toBe(false);
    const row = table.getByRole("row").nth(1);
    // The run's link, read whole though its repository name may break after the "/", and the
    // repository filter's own link beside it.
    const link = row.getByRole("link", { name: /^argus-sandbox\/[\w-]+ #\d+$/ });
    expect(await link.count()).toBe(1);
    expect(await row.getByRole("link").count()).toBe(2);
    expect(await brokenWords(link)).toEqual([]);
    expect(await link.getAttribute("href")).toBe(runPath);
    // ...and a tap anywhere on the row, not only on its link, opens the run that shows them.
    const status = row.getByRole("cell").nth(1);
    const box = await status.boundingBox();
    if (!box) throw new Error("the status cell is not on screen");
    await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
    await page.waitForURL(`${baseUrl}${runPath}`, { timeout: 5000 });
    for (const fact of ["Trigger", "Duration", "Queued"]) {
      await page.getByText(fact, { exact: true }).first().waitFor();
    }
  });
});

describe.each([
  ["at 390 px", PHONE],
  ["at 1280 px", DESKTOP],
])("long texts %s", (_label, viewport) => {
  beforeAll(() => page.setViewportSize(viewport));
  afterAll(() => page.setViewportSize(PHONE));

  it("a 300-character error on /payment-cancel wraps inside its card", async () => {
    const error = `The card issuer answered: ${"do_not_honor_".repeat(22)}`.slice(0, 300);
    expect(error).toHaveLength(300);
    await load(page, `/payment-cancel?${new URLSearchParams({ error })}`);
    const alert = page.getByRole("alert").filter({ hasText: "The card issuer answered" });
    expect(await alert.textContent()).toBe(error);
    expect(await alert.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const card = page.getByRole("region", { name: "Payment not completed" });
    const [alertBox, cardBox] = [await alert.boundingBox(), await card.boundingBox()];
    expect(alertBox && cardBox && alertBox.x + alertBox.width <= cardBox.x + cardBox.width).toBe(true);
    expect((await sidewaysOverflow(page)).scrollWidth).toBeLessThanOrEqual(viewport.width);
  });

  it("repository names on /home break between words, never inside one", async () => {
    await load(page, "/home");
    const headings = page.getByRole("article").getByRole("heading", { level: 3 });
    expect(await headings.count()).toBeGreaterThan(0);
    for (const heading of await headings.all()) {
      expect(await brokenWords(heading)).toEqual([]);
      // Screen readers read it whole, and a part cut short is whole in the heading's tooltip.
      const name = (await heading.getAttribute("title")) ?? "";
      expect(name).toMatch(/^argus-sandbox\/[\w-]+$/);
      await page.getByRole("article", { name, exact: true }).waitFor();
      expect(await heading.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
  });

  it("'Rows per page' stays on one line, and so do each contributor's username and e-mail", async () => {
    await load(page, "/subscriptions");
    expect(await linesOf(page.getByText("Rows per page", { exact: true }))).toBe(1);
    const rows = page.getByRole("table", { name: "Contributors" }).locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(0);
    for (const row of await rows.all()) {
      for (const column of [3, 4]) expect(await linesOf(row.locator(`td:nth-child(${column})`))).toBe(1);
    }
  });
});
