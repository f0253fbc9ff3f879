/**
 * What /subscriptions shows for a subscription (docs/product.md#subscriptions), decided apart from
 * the markup so each rule is one small function.
 */

import { PLAN_VALUES, TRIAL_ENDING_SOON_DAYS } from "../../../shared/constants.ts";
import type { PlanCode, Subscription } from "../../../shared/contract/billing.ts";
import { PLAN_NAMES, STATUS_LABELS, SUBSCRIPTIONS_TEXT as T } from "./billing-text";

export type Tone = "info" | "success" | "warning" | "danger";

/** The paid plan. The trial counts as Pro for seats (shared/contract/contributors.ts), not for billing: it can upgrade. */
export function isPaidPro(subscription: Subscription): boolean {
  return subscription.plan.plan_code === PLAN_VALUES.paid;
}

export function isFree(subscription: Subscription): boolean {
  return subscription.plan.plan_code === PLAN_VALUES.free;
}

export function planNameOf(code: PlanCode): string {
  return PLAN_NAMES[code];
}

export function headerButtons(subscription: Subscription) {
  const paid = isPaidPro(subscription);
  return {
    upgrade: !paid,
    updateSeats: paid,
    addPaymentMethod: paid || (isFree(subscription) && subscription.status === "paused"),
  };
}

export type Urgency = keyof typeof T.urgency;

/**
 * Red at 0 or less, amber at TRIAL_ENDING_SOON_DAYS or less, green otherwise; amber too while a
 * cancellation is scheduled, since the plan then ends instead of renewing.
 */
export function urgencyOf(daysRemaining: number, cancelling = false): Urgency {
  if (daysRemaining <= 0) return "critical";
  if (cancelling) return "cancelling";
  return daysRemaining <= TRIAL_ENDING_SOON_DAYS ? "soon" : "ok";
}

export const URGENCY_TONES: Record<Urgency, "danger" | "warning" | "success"> = {
  critical: "danger",
  soon: "warning",
  ok: "success",
  cancelling: "warning",
};

/**
 * The billing-period card's end: its label and how urgent its days remaining are. A scheduled
 * cancellation ends the plan on `end`, so the card says so rather than "Renewal Date".
 */
export function periodEndOf(subscription: Subscription): { label: string; urgency: Urgency | null } {
  const cancelling = subscription.meta.cancellation_request !== null;
  const days = subscription.daysRemaining;
  const label =
    subscription.plan.plan_code === PLAN_VALUES.proTrial
      ? T.trialEnds
      : cancelling
        ? T.subscriptionEnds
        : T.renewalDate;
  return { label, urgency: days === null ? null : urgencyOf(days, cancelling) };
}

export function statusOf(subscription: Subscription): {
  label: string;
  tone: "success" | "warning" | "danger";
} {
  if (subscription.isExpired) return { label: T.expired, tone: "danger" };
  const label = STATUS_LABELS[subscription.status];
  switch (subscription.status) {
    case "active":
    case "trialing":
      return { label, tone: "success" };
    case "paused":
    case "past_due":
      return { label, tone: "warning" };
    default:
      return { label, tone: "danger" };
  }
}

export interface Banner {
  id: string;
  tone: Tone;
  title: string;
  text: string;
}

function trialBanner(subscription: Subscription): Banner | null {
  const trial = subscription.meta.trial;
  if (!trial) return null;
  if (subscription.plan.plan_code === PLAN_VALUES.proTrial) {
    const left = subscription.trialDaysRemaining ?? 0;
    if (trial.status === "ending_soon" && left === 0) {
      return { id: "trial", tone: "danger", title: T.trialExpiresToday, text: T.trialExpiresTodayHint };
    }
    // A trial with time left is news, not a warning; it turns amber once it is ending soon.
    if (trial.status === "ending_soon") {
      return { id: "trial", tone: "warning", title: T.trialEndingSoon, text: T.trialDaysLeft(left) };
    }
    if (trial.status === "active") {
      return { id: "trial", tone: "info", title: T.trialInProgress, text: T.trialDaysLeft(left) };
    }
  }
  if (isFree(subscription) && trial.status === "ended" && !trial.converted_to_active) {
    return { id: "trial", tone: "warning", title: T.trialEnded, text: T.trialEndedHint };
  }
  return null;
}

/** The banners that apply, in the order the page shows them. */
export function bannersOf(subscription: Subscription, creditBalanceCents: number): Banner[] {
  const { pending_update: pending, cancellation_request: cancellation } = subscription.meta;
  const banners: (Banner | null)[] = [
    pending
      ? {
          id: "pending",
          tone: "info",
          title: T.updateInProgress,
          text: T.pendingUpdate(planNameOf(pending.new_plan_code), pending.new_quantity),
        }
      : null,
    creditBalanceCents > 0
      ? { id: "credit", tone: "success", title: T.creditTitle, text: T.credit(creditBalanceCents) }
      : null,
    trialBanner(subscription),
    cancellation
      ? {
          id: "cancellation",
          tone: "warning",
          title: T.cancellationScheduled,
          text: T.cancellationEnds(cancellation.stripe_cancel_at),
        }
      : null,
  ];
  return banners.filter((banner): banner is Banner => banner !== null);
}
