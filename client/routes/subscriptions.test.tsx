import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Subscription } from "../../shared/contract/billing.ts";
import { SUBSCRIPTION_MESSAGES } from "../../shared/contract/billing.ts";
import type { SeatStatus } from "../../shared/contract/contributors.ts";
import { SEAT_MESSAGES } from "../../shared/contract/contributors.ts";
import {
  FREE_PLAN,
  seats,
  subscription,
  subscriptionPageAnswer,
  trialSubscription,
} from "../../tests/support/client/billing-fixtures";
import { gateway, jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import Subscriptions, { loader } from "./subscriptions";

const fetchMock = vi.fn<typeof fetch>();
/** What the backend holds; the loader reads it on every load (so a revalidation sees changes). */
let current: { subscription: Subscription | null; credit: number; seats: SeatStatus };
/** Answers of the browser's POSTs, by path; a path without one is a test failure. */
let posts: Record<string, () => Response | Promise<Response>>;

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  current = { subscription: subscription(), credit: 0, seats: seats(5, 2) };
  posts = {};
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const billing = subscriptionPageAnswer(url, current);
    if (billing) return billing;
    // The contributors table has tests of its own (client/features/contributors).
    if (url.startsWith("http://backend.test/api/contributors?")) {
      return jsonResponse({ success: true, data: [], page: { total: 0, page: 1, pageSize: 10 } });
    }
    const answer = init?.method === "POST" ? posts[url] : undefined;
    if (answer) return answer();
    throw new Error(`unexpected fetch ${init?.method ?? "GET"} ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

/** Shows where a redirect led, path and query. */
function WhereProbe() {
  const location = useLocation();
  return <p>Went to {`${location.pathname}${location.search}`}</p>;
}

function renderSubscriptions() {
  renderPage({ path: "subscriptions", loader, Component: Subscriptions }, "/subscriptions", {
    extra: [
      { path: "sandbox/checkout", Component: WhereProbe },
      { path: "sandbox/portal", Component: WhereProbe },
    ],
  });
}

async function renderLoaded() {
  renderSubscriptions();
  return screen.findByRole("region", { name: "Current plan" });
}

function postsTo(path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url) === path && init?.method === "POST");
}

function bodyOf(path: string) {
  return JSON.parse(String(postsTo(path)[0]?.[1]?.body));
}

const button = (name: string) => screen.queryByRole("button", { name });

describe("/subscriptions loading", () => {
  it("loads the subscription, the credit and the seats with the session's token", async () => {
    await renderLoaded();
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls).toEqual(
      expect.arrayContaining([
        "http://backend.test/api/subscription",
        "http://backend.test/api/subscription/credit",
        "http://backend.test/api/seats/status",
      ]),
    );
    for (const [, init] of fetchMock.mock.calls) {
      expect(new Headers(init?.headers).get("authorization")).toBe("Bearer secret-token");
    }
  });

  it("says it is loading while the data is on its way", async () => {
    const normal = fetchMock.getMockImplementation();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fetchMock.mockImplementation(async (input, init) => {
      await held;
      return normal?.(input, init) as Promise<Response>;
    });
    renderSubscriptions();
    // The plan and the contributors table below it each say so.
    const statuses = await screen.findAllByRole("status");
    expect(statuses.map((status) => status.textContent)).toEqual([
      "Loading subscription…",
      "Loading contributors…",
    ]);
    release();
    expect(await screen.findByRole("region", { name: "Current plan" })).toBeInTheDocument();
  });

  it("says 'No subscriptions found' when there is none", async () => {
    current.subscription = null;
    renderSubscriptions();
    expect(await screen.findByRole("heading", { name: "No subscriptions found" })).toBeInTheDocument();
    expect(button("Upgrade to Pro")).toBeNull();
  });

  it("shows 'Failed to load subscription' with Retry, which loads again", async () => {
    let failing = true;
    const normal = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) =>
      failing && String(input).endsWith("/api/subscription/credit")
        ? new Response("down", { status: 500 })
        : (normal?.(input, init) as Promise<Response>),
    );
    renderSubscriptions();
    // One alert: the contributors section leaves the failure to the plan's, and waits for it.
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(SUBSCRIPTION_MESSAGES.loadFailed);
    expect(screen.getByText("Contributors show once the subscription has loaded.")).toBeInTheDocument();
    failing = false;
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("region", { name: "Current plan" })).toBeInTheDocument();
  });

  it("sends a guest to /login", async () => {
    renderPage({ path: "subscriptions", loader, Component: Subscriptions }, "/subscriptions", {
      value: gateway({ session: null }),
    });
    expect(await screen.findByText(/Login page/)).toHaveTextContent("redirectTo=%2Fsubscriptions");
  });
});

describe("/subscriptions plans", () => {
  it("Free: Upgrade to Pro only, no total at price 0, no billing-period card", async () => {
    current.subscription = subscription({ plan: FREE_PLAN, end: null, daysRemaining: null });
    const plan = await renderLoaded();
    expect(button("Upgrade to Pro")).toBeVisible();
    expect(button("Update Seats")).toBeNull();
    expect(button("Add Payment Method")).toBeNull();
    expect(within(plan).getByText("$0.00")).toBeVisible();
    expect(within(plan).queryByText("Total")).toBeNull();
    expect(screen.queryByRole("region", { name: "Billing period" })).toBeNull();
  });

  it("Free and paused: Add Payment Method too", async () => {
    current.subscription = subscription({
      plan: FREE_PLAN,
      status: "paused",
      end: null,
      daysRemaining: null,
    });
    await renderLoaded();
    expect(button("Upgrade to Pro")).toBeVisible();
    expect(button("Add Payment Method")).toBeVisible();
  });

  it("Pro: price per seat, total for every seat, status, seats allocated, renewal and its actions", async () => {
    current.seats = seats(3, 2);
    const plan = await renderLoaded();
    expect(button("Update Seats")).toBeVisible();
    expect(button("Upgrade to Pro")).toBeNull();
    expect(within(plan).getByText("$19.00")).toBeVisible();
    expect(within(plan).getByText("/seat/month")).toBeVisible();
    expect(within(plan).getByText(/\$57\.00/)).toBeVisible();
    expect(within(plan).getByText("Active")).toBeVisible();
    expect(within(plan).getByText("2 / 3 seats allocated")).toBeVisible();

    const period = screen.getByRole("region", { name: "Billing period" });
    expect(within(period).getByText("20 days remaining")).toBeVisible();
    expect(within(period).getByText("On track")).toBeVisible();
    expect(within(period).getByText("Renewal Date")).toBeVisible();
    expect(within(period).getByText("13 Dec 2026")).toBeVisible();
    expect(within(period).getByRole("button", { name: "Cancel Subscription" })).toBeVisible();
    expect(within(period).getByRole("button", { name: "Add Payment Method" })).toBeVisible();
    expect(within(period).queryByRole("button", { name: "Resume Subscription" })).toBeNull();
  });

  it("says Expired when the subscription is expired", async () => {
    current.subscription = subscription({ isExpired: true, daysRemaining: -2 });
    const plan = await renderLoaded();
    expect(within(plan).getByText("Expired")).toBeVisible();
    const period = screen.getByRole("region", { name: "Billing period" });
    expect(within(period).getByText("-2 days remaining")).toHaveClass("text-danger-text");
    expect(within(period).getByText("Ended or ending today")).toBeVisible();
  });

  it("colours the days remaining, and says it in words: amber at 3 or less", async () => {
    current.subscription = subscription({ daysRemaining: 3 });
    await renderLoaded();
    expect(screen.getByText("3 days remaining")).toHaveClass("text-warning-text");
    expect(screen.getByText("Ending soon")).toBeVisible();
  });
});

describe("/subscriptions banners", () => {
  it("trial in progress: its days left, Trial Ends, and Upgrade to Pro (no cancel)", async () => {
    current.subscription = trialSubscription(10);
    await renderLoaded();
    const banner = screen.getByText("Pro trial in progress").closest("[role=status]");
    expect(banner).toHaveTextContent("10 days left in your Pro trial");
    expect(banner).not.toHaveClass("text-warning-text");
    expect(banner).toHaveClass("text-fg");
    expect(button("Upgrade to Pro")).toBeVisible();
    const period = screen.getByRole("region", { name: "Billing period" });
    expect(within(period).getByText("Trial Ends")).toBeVisible();
    expect(button("Cancel Subscription")).toBeNull();
  });

  it("trial ending soon, in amber", async () => {
    current.subscription = trialSubscription(2, "ending_soon");
    await renderLoaded();
    const banner = screen.getByText("Trial ending soon").closest("[role=status]");
    expect(banner).toHaveTextContent("2 days left");
    expect(banner).toHaveClass("text-warning-text");
  });

  it("'Trial expires today' at 0 days left while ending soon", async () => {
    current.subscription = trialSubscription(0, "ending_soon");
    await renderLoaded();
    expect(screen.getByRole("alert")).toHaveTextContent("Trial expires today");
    expect(screen.queryByText("Trial ending soon")).toBeNull();
  });

  it("'Your trial has ended' once downgraded to Free", async () => {
    current.subscription = subscription({
      plan: FREE_PLAN,
      end: null,
      daysRemaining: null,
      hasTrialEnded: true,
      meta: { trial: { status: "ended", converted_to_active: false, isTrialing: false } },
    });
    await renderLoaded();
    expect(screen.getByText("Your trial has ended")).toBeVisible();
  });

  it("no trial banner once the trial converted to Pro", async () => {
    current.subscription = subscription({
      meta: { trial: { status: "converted", converted_to_active: true, isTrialing: false } },
    });
    await renderLoaded();
    expect(screen.queryByText(/trial/i)).toBeNull();
  });

  it("the credit balance, in dollars with two decimals, deducted from the next payment", async () => {
    current.credit = 1250;
    await renderLoaded();
    expect(screen.getByText("Credit balance").closest("[role=status]")).toHaveTextContent(
      "$12.50 will be deducted from the next payment.",
    );
  });

  it("an update in progress, with the pending plan and seats", async () => {
    current.subscription = subscription({
      meta: { pending_update: { new_quantity: 7, new_plan_code: "paid_m" } },
    });
    await renderLoaded();
    expect(screen.getByText("Update in progress").closest("[role=status]")).toHaveTextContent(
      "Changing to Pro with 7 seats.",
    );
  });

  it("'Cancellation Scheduled' with its end date; Resume instead of Cancel", async () => {
    current.subscription = subscription({
      meta: { cancellation_request: { stripe_cancel_at: "2026-12-13T00:00:00.000Z" } },
    });
    await renderLoaded();
    expect(screen.getByText("Cancellation Scheduled").closest("[role=status]")).toHaveTextContent(
      "ends on 13 Dec 2026",
    );
    expect(button("Resume Subscription")).toBeVisible();
    expect(button("Cancel Subscription")).toBeNull();
  });

  it("a scheduled cancellation: the billing period says when Pro ends, not when it renews", async () => {
    current.subscription = subscription({
      daysRemaining: 20,
      meta: { cancellation_request: { stripe_cancel_at: "2026-12-13T00:00:00.000Z" } },
    });
    await renderLoaded();
    const period = screen.getByRole("region", { name: "Billing period" });
    expect(within(period).getByText("Subscription Ends")).toBeVisible();
    expect(within(period).getByText("13 Dec 2026")).toBeVisible();
    expect(within(period).queryByText("Renewal Date")).toBeNull();
    expect(within(period).queryByText("On track")).toBeNull();
    expect(within(period).getByText("Not renewing")).toBeVisible();
    expect(within(period).getByText("20 days remaining")).toHaveClass("text-warning-text");
  });
});

describe("/subscriptions actions", () => {
  it("Upgrade to Pro: refuses 0 and fewer seats than allocated, then goes to the checkout", async () => {
    current.subscription = trialSubscription(10);
    current.seats = seats(5, 2);
    posts["/api/subscription/stripe/create-checkout-session"] = () =>
      jsonResponse({ url: "/sandbox/checkout?session_id=cs_1" });
    await renderLoaded();
    const user = userEvent.setup();
    await user.click(button("Upgrade to Pro") as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Upgrade to Pro" });
    const field = within(dialog).getByRole("spinbutton", { name: "Number of seats" });
    expect(field).toHaveValue(2);

    await user.clear(field);
    await user.type(field, "0");
    await user.click(within(dialog).getByRole("button", { name: "Continue to Checkout" }));
    expect(await within(dialog).findByText("Enter at least 1 seat")).toBeVisible();
    await user.clear(field);
    await user.type(field, "1");
    await user.click(within(dialog).getByRole("button", { name: "Continue to Checkout" }));
    expect(await within(dialog).findByText(SEAT_MESSAGES.belowAllocated)).toBeVisible();
    expect(postsTo("/api/subscription/stripe/create-checkout-session")).toHaveLength(0);

    await user.clear(field);
    await user.type(field, "3");
    await user.click(within(dialog).getByRole("button", { name: "Continue to Checkout" }));
    expect(await screen.findByText("Redirecting to secure checkout...")).toBeInTheDocument();
    expect(await screen.findByText("Went to /sandbox/checkout?session_id=cs_1")).toBeInTheDocument();
    expect(bodyOf("/api/subscription/stripe/create-checkout-session")).toEqual({
      orgId: "org-42",
      quantity: 3,
      email: "ada@example.com",
    });
  });

  it.each([
    ["the backend refuses", () => jsonResponse({ error: "Bad" }, 400), SUBSCRIPTION_MESSAGES.checkoutFailed],
    ["nothing answers", () => Promise.reject(new TypeError("network")), SUBSCRIPTION_MESSAGES.checkoutError],
  ])("Upgrade to Pro when %s: a toast, and the dialog stays", async (_, answer, message) => {
    current.subscription = subscription({ plan: FREE_PLAN, end: null, daysRemaining: null });
    posts["/api/subscription/stripe/create-checkout-session"] = answer;
    await renderLoaded();
    const user = userEvent.setup();
    await user.click(button("Upgrade to Pro") as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Upgrade to Pro" });
    await user.click(within(dialog).getByRole("button", { name: "Continue to Checkout" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Upgrade to Pro" })).toBeInTheDocument();
  });

  it("Update Seats: starts at the seat count, shows the monthly total, goes to the confirmation", async () => {
    current.seats = seats(3, 1);
    posts["/api/subscription/stripe/update-subscription"] = () =>
      jsonResponse({ url: "/sandbox/checkout?session_id=cs_2" });
    await renderLoaded();
    const user = userEvent.setup();
    await user.click(button("Update Seats") as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Update Seats" });
    const field = within(dialog).getByRole("spinbutton", { name: "Number of seats" });
    expect(field).toHaveValue(3);
    await user.clear(field);
    await user.type(field, "4");
    expect(within(dialog).getByText("4 seats: $76.00 per month")).toBeVisible();
    await user.click(within(dialog).getByRole("button", { name: "Update Seats" }));
    expect(await screen.findByText("Redirecting to billing confirmation...")).toBeInTheDocument();
    expect(await screen.findByText("Went to /sandbox/checkout?session_id=cs_2")).toBeInTheDocument();
    expect(bodyOf("/api/subscription/stripe/update-subscription")).toEqual({
      subscriptionId: "sub_123",
      quantity: 4,
      email: "ada@example.com",
    });
  });

  it("Update Seats without a subscription id says so and calls nothing", async () => {
    current.subscription = subscription({ stripe_subscription_id: null });
    await renderLoaded();
    const user = userEvent.setup();
    await user.click(button("Update Seats") as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Update Seats" });
    await user.click(within(dialog).getByRole("button", { name: "Update Seats" }));
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.invalidSubscriptionId)).toBeInTheDocument();
    expect(postsTo("/api/subscription/stripe/update-subscription")).toHaveLength(0);
  });

  it("Add Payment Method opens the billing portal", async () => {
    posts["/api/subscription/stripe/customer-portal"] = () => jsonResponse({ url: "/sandbox/portal" });
    await renderLoaded();
    await userEvent.click(screen.getAllByRole("button", { name: "Add Payment Method" })[0] as HTMLElement);
    expect(await screen.findByText("Opening billing portal...")).toBeInTheDocument();
    expect(await screen.findByText("Went to /sandbox/portal")).toBeInTheDocument();
    expect(bodyOf("/api/subscription/stripe/customer-portal")).toEqual({ orgId: "org-42" });
  });

  it("Add Payment Method failing says 'Failed to open billing portal'", async () => {
    posts["/api/subscription/stripe/customer-portal"] = () => jsonResponse({ error: "No" }, 500);
    await renderLoaded();
    await userEvent.click(screen.getAllByRole("button", { name: "Add Payment Method" })[0] as HTMLElement);
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.portalFailed)).toBeInTheDocument();
  });

  it("Cancel Subscription: Keep Subscription closes; Confirm Cancellation schedules it and shows it", async () => {
    posts["/api/subscription/stripe/cancel-subscription"] = () => {
      current.subscription = subscription({
        meta: { cancellation_request: { stripe_cancel_at: "2026-12-13T00:00:00.000Z" } },
      });
      return jsonResponse({ success: true, message: "ok" });
    };
    await renderLoaded();
    const user = userEvent.setup();
    const cancel = button("Cancel Subscription") as HTMLElement;
    await user.click(cancel);
    let dialog = await screen.findByRole("dialog", { name: "Cancel Subscription" });
    expect(dialog).toHaveTextContent("stays active until 13 Dec 2026");
    await user.click(within(dialog).getByRole("button", { name: "Keep Subscription" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(cancel).toHaveFocus();
    expect(postsTo("/api/subscription/stripe/cancel-subscription")).toHaveLength(0);

    await user.click(cancel);
    dialog = await screen.findByRole("dialog", { name: "Cancel Subscription" });
    await user.click(within(dialog).getByRole("button", { name: "Confirm Cancellation" }));
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.cancellationScheduled)).toBeInTheDocument();
    expect(await screen.findByText("Cancellation Scheduled")).toBeInTheDocument();
    expect(button("Resume Subscription")).toBeVisible();
    expect(bodyOf("/api/subscription/stripe/cancel-subscription")).toEqual({
      orgId: "org-42",
      immediate: true,
    });
  });

  it("Confirm Cancellation failing says 'Failed to cancel subscription'", async () => {
    posts["/api/subscription/stripe/cancel-subscription"] = () =>
      jsonResponse({ success: false, message: "" });
    await renderLoaded();
    const user = userEvent.setup();
    await user.click(button("Cancel Subscription") as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Cancel Subscription" });
    await user.click(within(dialog).getByRole("button", { name: "Confirm Cancellation" }));
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.cancelFailed)).toBeInTheDocument();
    expect(button("Cancel Subscription")).toBeVisible();
  });

  it("Resume Subscription resumes it and shows it", async () => {
    current.subscription = subscription({
      meta: { cancellation_request: { stripe_cancel_at: "2026-12-13T00:00:00.000Z" } },
    });
    posts["/api/subscription/stripe/resume-subscription"] = () => {
      current.subscription = subscription();
      return jsonResponse({ success: true, message: "ok" });
    };
    await renderLoaded();
    await userEvent.click(button("Resume Subscription") as HTMLElement);
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.resumed)).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Cancel Subscription" })).toBeVisible();
    expect(screen.queryByText("Cancellation Scheduled")).toBeNull();
    expect(bodyOf("/api/subscription/stripe/resume-subscription")).toEqual({ orgId: "org-42" });
  });

  it("Resume Subscription failing says 'Failed to resume subscription'", async () => {
    current.subscription = subscription({
      meta: { cancellation_request: { stripe_cancel_at: "2026-12-13T00:00:00.000Z" } },
    });
    posts["/api/subscription/stripe/resume-subscription"] = () => jsonResponse({ error: "No" }, 409);
    await renderLoaded();
    await userEvent.click(button("Resume Subscription") as HTMLElement);
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.resumeFailed)).toBeInTheDocument();
  });
});
