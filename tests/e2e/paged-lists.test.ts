/**
 * Searching and paging the lists in a real browser (docs/decisions/038-server-side-paging.md): on a
 * stack of its own whose organisation was seeded with more repositories, contributors and review
 * runs than a page holds (bench/lib/org-stack.ts), signed in with that organisation's session.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededStack, startSeededStack } from "../../bench/lib/org-stack.ts";
import { SESSION_COOKIE_NAME } from "../../shared/constants.ts";
import { HOME_PAGE_SIZE, REVIEWS_PAGE_SIZE } from "../../shared/contract/paging.ts";
import { heightOf, launchBrowser, seriousViolations, waitForHydration } from "./browser.ts";

const SIZE = { repositories: 30, contributors: 25, seats: 2, runs: 60 };
let seeded: SeededStack<"lists">;
let browser: Browser;

beforeAll(async () => {
  seeded = await startSeededStack({ lists: SIZE });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await seeded?.stop();
});

async function signedIn(path: string): Promise<Page> {
  const { gatewayUrl } = seeded.stack;
  const context = await browser.newContext();
  await context.addCookies([
    {
      name: SESSION_COOKIE_NAME,
      value: seeded.tokens.lists,
      domain: new URL(gatewayUrl).hostname,
      path: "/",
    },
  ]);
  const page = await context.newPage();
  await page.goto(`${gatewayUrl}${path}`);
  await waitForHydration(page);
  return page;
}

describe("/home", () => {
  it("shows a page of repositories, pages with links the back button returns through, and searches", async () => {
    const page = await signedIn("/home");
    // Within the section: while React reveals the streamed grid, a hidden copy of it can sit at the
    // end of the document for a moment (seen once in CI as two "30 repositories").
    const repositories = page.locator('[aria-labelledby="repositories"]');
    const cards = repositories.locator("article");
    await expect.poll(() => cards.count()).toBe(HOME_PAGE_SIZE);
    const pages = page.getByRole("navigation", { name: "Repository pages" });
    await expect
      .poll(() => pages.textContent())
      .toContain(`Page 1 of ${Math.ceil(SIZE.repositories / HOME_PAGE_SIZE)}`);
    expect(await repositories.getByText("30 repositories").isVisible()).toBe(true);

    await pages.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/home\?page=2$/);
    await expect
      .poll(() => cards.first().getByRole("heading").getAttribute("title"))
      .toBe(`lists/lists-repository-${String(HOME_PAGE_SIZE + 1).padStart(4, "0")}`);
    expect(await cards.count()).toBe(Math.min(HOME_PAGE_SIZE, SIZE.repositories - HOME_PAGE_SIZE));

    await page.goBack();
    await page.waitForURL(/\/home$/);
    await expect
      .poll(() => cards.first().getByRole("heading").getAttribute("title"))
      .toBe("lists/lists-repository-0001");
    expect(await cards.count()).toBe(HOME_PAGE_SIZE);

    const searchbox = page.getByRole("searchbox", { name: "Search repositories" });
    // A button beside a field is as tall as the field.
    expect(await heightOf(page.getByRole("button", { name: "Search" }))).toBe(await heightOf(searchbox));
    await searchbox.fill("REPOSITORY-001");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/home\?search=REPOSITORY-001$/);
    await expect
      .poll(() => repositories.getByText("10 repositories match “REPOSITORY-001”").isVisible())
      .toBe(true);
    await expect.poll(() => cards.count()).toBe(Math.min(10, HOME_PAGE_SIZE));
    // An emptied search leaves the URL: every repository again, from the first page.
    await searchbox.fill("  ");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => cards.count()).toBe(HOME_PAGE_SIZE);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe("/subscriptions", () => {
  it("pages, sorts and searches the contributors through the API, keeping the table's controls", async () => {
    const page = await signedIn("/subscriptions");
    const table = page.getByRole("table", { name: "Contributors" });
    const names = () => table.getByRole("row").locator("td:nth-child(2)").allTextContents();
    await expect.poll(async () => (await names()).length).toBe(10);
    await expect.poll(() => page.getByText("Page 1 of 3").isVisible()).toBe(true);

    const calls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/contributors") calls.push(new URL(request.url()).search);
    });
    const firstPage = await names();
    await page.getByRole("button", { name: "Next page" }).click();
    await expect.poll(() => page.getByText("Page 2 of 3").isVisible()).toBe(true);
    await expect.poll(async () => (await names())[0]).not.toBe(firstPage[0]);
    expect(calls).toEqual(["?page=2&pageSize=10&sort=name"]);

    await page.getByRole("button", { name: "Name", exact: true }).click();
    await expect
      .poll(() => page.getByRole("columnheader", { name: /Name/ }).getAttribute("aria-sort"))
      .toBe("descending");
    // The page stays where it was, as it always has; a search goes back to the first.
    await expect.poll(() => calls.at(-1)).toBe("?page=2&pageSize=10&sort=-name");

    await page.getByRole("searchbox", { name: "Search by name" }).fill("grace");
    await expect.poll(async () => (await names()).every((name) => name.startsWith("Grace "))).toBe(true);
    expect(await names()).toHaveLength(3);
    expect(calls.at(-1)).toBe("?pageSize=10&search=grace&sort=-name");
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe("/reviews", () => {
  it("pages to the oldest runs and filters by outcome and repository, all in the URL", async () => {
    const page = await signedIn("/reviews");
    const table = page.getByRole("table", { name: "Review runs, newest first" });
    const rows = table.locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(REVIEWS_PAGE_SIZE);
    // The newest seeded run has no title: the repository filter still takes a line of its own, also
    // where the column has room for both.
    await page.setViewportSize({ width: 1920, height: 1080 });
    const run = await rows.first().getByRole("link", { name: /#\d+$/ }).boundingBox();
    const filter = await rows
      .first()
      .getByRole("link", { name: /^Only this repository/ })
      .boundingBox();
    expect(filter?.y).toBeGreaterThanOrEqual((run?.y ?? 0) + (run?.height ?? 0));
    const pages = page.getByRole("navigation", { name: "Review pages" });
    await pages.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/reviews\?page=2$/);
    await expect.poll(() => rows.count()).toBe(SIZE.runs - REVIEWS_PAGE_SIZE);

    expect(await heightOf(page.getByRole("button", { name: "Apply" }))).toBe(
      await heightOf(page.getByRole("combobox", { name: "Outcome" })),
    );
    await page.getByRole("combobox", { name: "Outcome" }).selectOption("failed");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/\/reviews\?status=failed$/);
    // Runs 0, 17, 34 and 51 of the seeded 60 failed.
    await expect.poll(() => rows.count()).toBe(4);
    expect(await rows.getByText("Failed").count()).toBe(4);

    await rows
      .first()
      .getByRole("link", { name: /^Only this repository/ })
      .click();
    await page.waitForURL(/\/reviews\?projectId=[0-9a-f-]+&status=failed$/);
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole("link", { name: "Show every repository" }).click();
    await page.waitForURL(/\/reviews\?status=failed$/);
    await expect.poll(() => rows.count()).toBe(4);

    // Runs 34 and 51 are of pull request 2 of their repositories, "Change 2 of the service".
    const search = page.getByRole("searchbox", { name: "Pull request" });
    await search.fill("change 2");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/\/reviews\?search=change\+2&status=failed$/);
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.getByText("Change 2 of the service").count()).toBe(2);
    // Emptied, both filters leave the URL.
    await search.fill("");
    await page.getByRole("combobox", { name: "Outcome" }).selectOption("");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/\/reviews$/);
    await expect.poll(() => rows.count()).toBe(REVIEWS_PAGE_SIZE);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
