/** Billing test data for the jsdom tests of the billing pages (not imported by the app). */

import { PLAN_VALUES } from "../../../shared/constants.ts";
import type { SandboxCheckout, Subscription } from "../../../shared/contract/billing.ts";
import type { SeatStatus } from "../../../shared/contract/contributors.ts";
import { jsonResponse } from "./fixtures";

type SubscriptionOverrides = Partial<Omit<Subscription, "meta">> & { meta?: Partial<Subscription["meta"]> };

/** A paid Pro subscription at $19 a seat, renewing in 20 days; override what a test needs. */
export function subscription(overrides: SubscriptionOverrides = {}): Subscription {
  return {
    plan: { plan_code: PLAN_VALUES.paid, name: "Pro", price: 1900, currency: "usd" },
    status: "active",
    end: "2026-12-13T00:00:00.000Z",
    daysRemaining: 20,
    isExpired: false,
    trialDaysRemaining: null,
    isTrialEndingSoon: false,
    hasTrialEnded: false,
    stripe_subscription_id: "sub_123",
    org_id: "org-42",
    ...overrides,
    meta: { pending_update: null, trial: null, cancellation_request: null, ...overrides.meta },
  };
}

export const FREE_PLAN = { plan_code: PLAN_VALUES.free, name: "Free", price: 0, currency: "usd" } as const;
export const TRIAL_PLAN = {
  plan_code: PLAN_VALUES.proTrial,
  name: "Pro Trial",
  price: 0,
  currency: "usd",
} as const;

/** On the Pro trial with `days` left. */
export function trialSubscription(days: number, status: "active" | "ending_soon" = "active"): Subscription {
  return subscription({
    plan: TRIAL_PLAN,
    status: "trialing",
    daysRemaining: days,
    trialDaysRemaining: days,
    isTrialEndingSoon: status === "ending_soon",
    stripe_subscription_id: null,
    meta: { trial: { status, converted_to_active: false, isTrialing: true } },
  });
}

export function seats(total: number, allocated: number): SeatStatus {
  return { total_seats: total, allocated_seats: allocated, available_seats: total - allocated };
}

export function sandboxCheckout(overrides: Partial<SandboxCheckout> = {}): SandboxCheckout {
  return {
    id: "cs_sandbox_1",
    kind: "checkout",
    planName: "Pro",
    quantity: 3,
    unitAmount: 1900,
    amount: 5700,
    currency: "usd",
    customerEmail: "ada@example.com",
    status: "open",
    ...overrides,
  };
}

/** What the backend answers /subscriptions' loads of the subscription, the credit and the seats; undefined for other URLs. */
export function subscriptionPageAnswer(
  url: string,
  backend: { subscription: Subscription | null; credit?: number; seats: SeatStatus },
): Response | undefined {
  if (url === "http://backend.test/api/subscription") {
    return jsonResponse({ success: true, subscription: backend.subscription });
  }
  if (url === "http://backend.test/api/subscription/credit") {
    return jsonResponse({ success: true, creditBalanceCents: backend.credit ?? 0 });
  }
  if (url === "http://backend.test/api/seats/status")
    return jsonResponse({ success: true, data: backend.seats });
  return undefined;
}
