/**
 * An organisation's subscription as the contract shows it (shared/contract/billing.ts), computed
 * from its row and the billing clock: days left, ending soon, expired and the trial's state are
 * never stored, so they are always true for "now".
 */
import type { Selectable } from "kysely";
import { PLAN_VALUES, TRIAL_ENDING_SOON_DAYS } from "../../shared/constants.ts";
import type { Plan, PlanCode, Subscription } from "../../shared/contract/billing.ts";
import type { SubscriptionsTable } from "../db/schema.ts";
import { daysUntil } from "./clock.ts";

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** What Pro costs: per seat and month, minor units (BackendConfig.billing). */
export interface PriceTerms {
  seatPriceCents: number;
  currency: string;
}

const PLAN_NAMES: Record<PlanCode, string> = {
  [PLAN_VALUES.free]: "Free",
  [PLAN_VALUES.proTrial]: "Pro Trial",
  [PLAN_VALUES.paid]: "Pro",
};

/** Free and the trial cost nothing; Pro costs the configured price per seat. */
export function planOf(code: PlanCode, terms: PriceTerms): Plan {
  return {
    plan_code: code,
    name: PLAN_NAMES[code],
    price: code === PLAN_VALUES.paid ? terms.seatPriceCents : 0,
    currency: terms.currency,
  };
}

/** The date the subscription runs to: the trial's end, a scheduled cancellation, or the period end. */
type EndFields = Pick<
  SubscriptionRow,
  "plan_code" | "status" | "trial_ends_at" | "cancel_at" | "current_period_end"
>;

function endOf(row: EndFields): Date | null {
  if (row.plan_code === PLAN_VALUES.proTrial) return row.trial_ends_at;
  if (row.plan_code === PLAN_VALUES.paid) return row.cancel_at ?? row.current_period_end;
  return null;
}

function trialOf(row: SubscriptionRow, trialDaysRemaining: number | null): Subscription["meta"]["trial"] {
  // Only an organisation that had a trial has anything to say about one.
  if (!row.trial_ends_at && !row.converted_to_active) return null;
  const isTrialing = row.plan_code === PLAN_VALUES.proTrial;
  let status: "active" | "ending_soon" | "ended" | "converted" = "ended";
  if (row.converted_to_active) status = "converted";
  else if (isTrialing && trialDaysRemaining !== null && trialDaysRemaining >= 0) {
    status = trialDaysRemaining <= TRIAL_ENDING_SOON_DAYS ? "ending_soon" : "active";
  }
  return { status, converted_to_active: row.converted_to_active, isTrialing };
}

/**
 * Over: cancelled, or past the last day of its trial or period (whole days, so the last day still
 * counts). Seat changes read it too (backend/contributors/seats.ts).
 */
export function isExpiredAt(row: EndFields, now: Date): boolean {
  const end = endOf(row);
  return row.status === "canceled" || (end !== null && daysUntil(end, now) < 0);
}

export function subscriptionView(row: SubscriptionRow, now: Date, terms: PriceTerms): Subscription {
  const end = endOf(row);
  const daysRemaining = end ? daysUntil(end, now) : null;
  const isTrial = row.plan_code === PLAN_VALUES.proTrial;
  const trialDaysRemaining = isTrial ? daysRemaining : null;
  const trial = trialOf(row, trialDaysRemaining);
  return {
    plan: planOf(row.plan_code, terms),
    status: row.status,
    end: end?.toISOString() ?? null,
    daysRemaining,
    isExpired: isExpiredAt(row, now),
    trialDaysRemaining,
    isTrialEndingSoon: trial?.status === "ending_soon",
    hasTrialEnded: trial?.status === "ended",
    stripe_subscription_id: row.stripe_subscription_id,
    org_id: row.org_id,
    meta: {
      pending_update:
        row.pending_quantity !== null
          ? { new_quantity: row.pending_quantity, new_plan_code: row.pending_plan_code ?? row.plan_code }
          : null,
      trial,
      cancellation_request:
        row.plan_code === PLAN_VALUES.paid && row.cancel_at && row.status !== "canceled"
          ? { stripe_cancel_at: row.cancel_at.toISOString() }
          : null,
    },
  };
}
