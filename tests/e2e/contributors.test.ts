/**
 * Contributors and seats in a real browser against the whole stack (local mode): the sandbox code
 * host brings its active people on connecting, more are added by username (through the API, and
 * one through the dialog), and seats are given and taken on the new organisation's Pro trial
 * (TRIAL_SEATS seats) while the plan card's count follows.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TRIAL_SEATS } from "../../shared/constants.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { SEAT_MESSAGES } from "../../shared/contract/contributors.ts";
import { sandboxConnectOf } from "../../shared/contract/sandbox.ts";
import { SANDBOX_ACTIVE_PEOPLE, SANDBOX_PEOPLE } from "../../shared/sandbox-samples.ts";
import { launchBrowser, seriousViolations, signedInPage } from "./browser.ts";

const stack = {
  baseUrl: inject("gatewayUrl"),
  emulatorHost: inject("emulatorHost"),
  projectId: inject("projectId"),
};
const CONTRIBUTORS = 25;
let browser: Browser;

/** A call from the page, as its own scripts make them (same origin, the session cookie). */
function call(page: Page, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    { path, body },
  );
}

/** Connects the sandbox GitHub, which imports its active people, and adds others by username up to `count` - 1. */
async function seedContributors(page: Page, count: number): Promise<void> {
  const session = (await call(page, "/auth/session")).json as { user: { orgId: string } };
  const github = (await call(page, API_PATHS.integration("github"))).json as {
    data: { links: { oauth_url: string } };
  };
  const setup = await call(page, API_PATHS.githubSetup, {
    org_id: session.user.orgId,
    ...sandboxConnectOf(github.data.links.oauth_url),
  });
  expect(setup.status).toBe(200);
  for (const person of SANDBOX_PEOPLE.slice(SANDBOX_ACTIVE_PEOPLE, count - 1)) {
    const added = await call(page, API_PATHS.addContributor, {
      platform_id: person.login,
      platform_type: "github",
    });
    expect(added.status).toBe(200);
  }
}

const seatSwitch = (page: Page, name: string) => page.getByRole("switch", { name: `Seat for ${name}` });
const rows = (page: Page) => page.getByRole("table").getByRole("row");

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("contributors and seats", () => {
  it("adds a contributor, pages through 25, gives seats until none is left, and takes one back", async () => {
    const page = await signedInPage(browser, stack, "Dorothy Vaughan", "/subscriptions");
    await seedContributors(page, CONTRIBUTORS);
    await page.reload({ waitUntil: "networkidle" });
    await page.getByText(`0 / ${TRIAL_SEATS} seats allocated`).waitFor();
    await page.getByRole("table").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The 25th, through the dialog.
    const last = SANDBOX_PEOPLE[CONTRIBUTORS - 1];
    await page.getByRole("button", { name: "Add Contributor" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Contributor" });
    await dialog.getByLabel("GitHub username").fill(last?.login.slice(0, 2) ?? "");
    expect(await dialog.getByRole("button", { name: "Add", exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel("GitHub username").fill(last?.login ?? "");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByText("Contributor added successfully").waitFor();
    await dialog.waitFor({ state: "hidden" });

    // 25 contributors: pages of 10, 10 and 5, or one page of 30.
    // Each page comes from the backend: the rows follow the controls once it answers.
    await page.getByText("Page 1 of 3").waitFor();
    await expect.poll(() => rows(page).count()).toBe(11);
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Page 3 of 3").waitFor();
    await expect.poll(() => rows(page).count()).toBe(6);
    await page.getByLabel("Rows per page").selectOption("30");
    await page.getByText("Page 1 of 1").waitFor();
    await expect.poll(() => rows(page).count()).toBe(CONTRIBUTORS + 1);
    await page.getByLabel("Search by name").fill(last?.name ?? "");
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.getByLabel("Search by name").fill("");

    // Seats: the plan card follows each toggle.
    const people = SANDBOX_PEOPLE.slice(0, TRIAL_SEATS + 1).map((person) => person.name);
    for (const [index, name] of people.slice(0, TRIAL_SEATS).entries()) {
      await seatSwitch(page, name).click();
      await page.getByText(`${index + 1} / ${TRIAL_SEATS} seats allocated`).waitFor();
      await expect.poll(() => seatSwitch(page, name).getAttribute("aria-checked")).toBe("true");
    }
    const waiting = seatSwitch(page, people[TRIAL_SEATS] ?? "");
    await expect.poll(() => waiting.getAttribute("aria-disabled")).toBe("true");
    const describedBy = (await waiting.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(SEAT_MESSAGES.allSeatsInUse);
    await waiting.hover();
    await page.getByRole("tooltip").getByText(SEAT_MESSAGES.allSeatsInUse).waitFor();
    // Playwright will not click what says it is disabled; a person can, and nothing happens.
    await waiting.click({ force: true });
    expect(await waiting.getAttribute("aria-checked")).toBe("false");
    expect(await seriousViolations(page)).toEqual([]);

    await seatSwitch(page, people[0] ?? "").click();
    await page.getByText(`${TRIAL_SEATS - 1} / ${TRIAL_SEATS} seats allocated`).waitFor();
    await expect.poll(() => waiting.getAttribute("aria-disabled")).toBeNull();

    // What the backend kept.
    await page.reload({ waitUntil: "networkidle" });
    await page.getByText(`${TRIAL_SEATS - 1} / ${TRIAL_SEATS} seats allocated`).waitFor();
    await page.getByRole("table").waitFor();
    await page.getByLabel("Rows per page").selectOption("30");
    expect(await seatSwitch(page, people[0] ?? "").getAttribute("aria-checked")).toBe("false");
    expect(await seatSwitch(page, people[1] ?? "").getAttribute("aria-checked")).toBe("true");
  });
});
