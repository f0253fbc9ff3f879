/**
 * Billing in a real browser against the whole stack (local mode, so sandbox billing: the sandbox's
 * checkout page stands in for Stripe's): the trial a new organisation starts on, the upgrade to
 * Pro, a seat update, cancel and resume, the billing portal, and a checkout given up.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PAYMENT_MESSAGES } from "../../shared/contract/billing.ts";
import { launchBrowser, seriousViolations, signedInPage } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
let browser: Browser;

/**
 * Dismisses the toasts on screen and waits until they are gone: axe measures a toast sliding in or
 * out at a partial opacity, which is no contrast fault of the page.
 */
async function settleToasts(page: Page) {
  for (const dismiss of await page.getByRole("button", { name: "Dismiss notification" }).all()) {
    await dismiss.click().catch(() => {});
  }
  await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached" });
}

/** Asks for `seats` in the open seats dialog and pays on the sandbox checkout, back to /subscriptions. */
async function buySeats(page: Page, opener: string, submit: string, seats: number) {
  await page.getByRole("button", { name: opener }).click();
  const dialog = page.getByRole("dialog", { name: opener });
  await dialog.getByLabel("Number of seats").fill(String(seats));
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: submit }).click();

  await page.waitForURL(/\/sandbox\/checkout\?session_id=/);
  await page.getByRole("heading", { name: "Sandbox checkout" }).waitFor();
  // The redirect's toast came along.
  await settleToasts(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: /^Pay / }).click();

  await page.waitForURL(/\/payment-success\?session_id=/);
  await page.getByRole("heading", { name: "Payment Successful" }).waitFor({ timeout: 20_000 });
  await page.getByText("Completed").waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: "View Subscriptions" }).click();
  await page.waitForURL(`${baseUrl}/subscriptions`);
}

const plan = (page: Page) => page.getByRole("region", { name: "Current plan" });

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("billing", () => {
  it("starts on the Pro trial, upgrades to Pro with 3 seats, updates seats, cancels and resumes", async () => {
    const page = await signedInPage(browser, stack, "Grace Hopper", "/subscriptions");
    await page.getByText("Pro trial in progress").waitFor();
    await page.getByText("Trial Ends").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await buySeats(page, "Upgrade to Pro", "Continue to Checkout", 3);
    await plan(page)
      .getByText(/\/ 3 seats allocated$/)
      .waitFor();
    await plan(page).getByText("Active").waitFor();
    await page.getByText("Renewal Date").waitFor();
    expect(await page.getByRole("button", { name: "Upgrade to Pro" }).count()).toBe(0);
    expect(await page.getByText("Pro trial in progress").count()).toBe(0);

    await buySeats(page, "Update Seats", "Update Seats", 4);
    await plan(page)
      .getByText(/\/ 4 seats allocated$/)
      .waitFor();

    await page.getByRole("button", { name: "Cancel Subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel Subscription" });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Confirm Cancellation" }).click();
    await page.getByText("Subscription cancellation scheduled for period end").waitFor();
    await page.getByText("Cancellation Scheduled", { exact: true }).waitFor();
    // The billing period says when Pro ends, no longer when it renews.
    await page.getByText("Subscription Ends", { exact: true }).waitFor();
    expect(await page.getByText("Renewal Date").count()).toBe(0);
    await settleToasts(page);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Resume Subscription" }).click();
    await page.getByText("Subscription resumed").waitFor();
    await page.getByRole("button", { name: "Cancel Subscription" }).waitFor();
    expect(await page.getByText("Cancellation Scheduled", { exact: true }).count()).toBe(0);

    // The sandbox's billing portal, and back as from Stripe's.
    await page.getByRole("button", { name: "Add Payment Method" }).first().click();
    await page.waitForURL(`${baseUrl}/sandbox/portal`);
    await page.getByRole("heading", { name: "Sandbox billing portal" }).waitFor();
    await settleToasts(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Return to the app" }).click();
    await page.getByRole("heading", { name: "Billing details updated" }).waitFor();
    await page.context().close();
  });

  it("a checkout given up on the sandbox page lands on /payment-cancel, and nothing changes", async () => {
    const page = await signedInPage(browser, stack, "Annie Easley", "/subscriptions");
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    await page
      .getByRole("dialog", { name: "Upgrade to Pro" })
      .getByRole("button", { name: "Continue to Checkout" })
      .click();
    await page.waitForURL(/\/sandbox\/checkout\?session_id=/);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();

    await page.waitForURL(/\/payment-cancel/);
    await page.getByText("Payment was cancelled or not completed").waitFor();
    await page.getByText("No charge was made.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Try Again" }).click();
    await page.waitForURL(`${baseUrl}/subscriptions`);
    await page.getByText("Pro trial in progress").waitFor();
    await page.context().close();
  });

  it("/payment-success without a session names the fault, offers its three ways on one line, then goes to /payment-cancel", async () => {
    const page = await signedInPage(browser, stack, "Dorothy Vaughan", "/payment-success");
    const alert = page.getByRole("alert").filter({ hasText: PAYMENT_MESSAGES.missingSessionId });
    await alert.waitFor();
    const actions = [
      alert.getByRole("link", { name: "Back to Subscriptions" }),
      alert.getByRole("button", { name: "Try Again" }),
      alert.getByRole("link", { name: "Go to Dashboard" }),
    ];
    const tops = await Promise.all(actions.map(async (action) => (await action.boundingBox())?.y));
    expect(new Set(tops).size, `tops ${tops.join(", ")}`).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    // The cancellation page then shows the same message.
    await page.waitForURL(/\/payment-cancel\?error=/);
    await page.getByText(PAYMENT_MESSAGES.missingSessionId).waitFor();
    await page.context().close();
  });
});
