/**
 * The wording of the billing screens that is theirs alone (the shared messages are in
 * shared/contract/billing.ts). Only these pages import it.
 */

import { PLAN_VALUES } from "../../../shared/constants.ts";
import type { PlanCode, SubscriptionStatus } from "../../../shared/contract/billing.ts";
import { formatDate, formatMoney } from "./format-billing.ts";

const seats = (n: number) => `${n} ${n === 1 ? "seat" : "seats"}`;
const days = (n: number) => `${n} ${Math.abs(n) === 1 ? "day" : "days"}`;

export const PLAN_NAMES: Record<PlanCode, string> = {
  [PLAN_VALUES.free]: "Free",
  [PLAN_VALUES.proTrial]: "Pro Trial",
  [PLAN_VALUES.paid]: "Pro",
};

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: "Active",
  trialing: "Trialing",
  paused: "Paused",
  past_due: "Past Due",
  canceled: "Canceled",
};

export const SUBSCRIPTIONS_TEXT = {
  title: "Subscriptions",
  intro: "Your plan, its seats and how you pay for them.",
  upgrade: "Upgrade to Pro",
  updateSeats: "Update Seats",
  addPaymentMethod: "Add Payment Method",
  cancel: "Cancel Subscription",
  resume: "Resume Subscription",
  noSubscription: "No subscriptions found",
  noSubscriptionHint: "This organization has no subscription yet.",
  loading: "Loading subscription…",
  loadFailedHint: "The subscription could not be fetched. Check your connection and try again.",
  // Banners
  updateInProgress: "Update in progress",
  pendingUpdate: (planName: string, quantity: number) =>
    `Changing to ${planName} with ${seats(quantity)}. The change shows here once the payment is confirmed.`,
  creditTitle: "Credit balance",
  credit: (cents: number) => `${formatMoney(cents)} will be deducted from the next payment.`,
  trialInProgress: "Pro trial in progress",
  trialEndingSoon: "Trial ending soon",
  trialDaysLeft: (n: number) => `${days(n)} left in your Pro trial. Upgrade to keep Pro features.`,
  trialExpiresToday: "Trial expires today",
  trialExpiresTodayHint: "Upgrade today to keep Pro features.",
  trialEnded: "Your trial has ended",
  trialEndedHint: "Your organization is on the Free plan. Upgrade to Pro to manage seats again.",
  cancellationScheduled: "Cancellation Scheduled",
  cancellationEnds: (date: string | null) =>
    `Your Pro subscription ends on ${formatDate(date)}. Resume it before then to keep it.`,
  // Card 1
  currentPlan: "Current plan",
  perSeatMonth: "/seat/month",
  total: "Total",
  perMonth: "/month",
  status: "Status",
  expired: "Expired",
  seatsAllocated: (allocated: number, total: number) => `${allocated} / ${total} seats allocated`,
  // Card 2
  billingPeriod: "Billing period",
  daysRemaining: (n: number | null) => (n === null ? "N/A" : `${days(n)} remaining`),
  /** Days remaining in words, so the colour is never the only sign. */
  urgency: {
    critical: "Ended or ending today",
    soon: "Ending soon",
    ok: "On track",
    cancelling: "Not renewing",
  },
  trialEnds: "Trial Ends",
  renewalDate: "Renewal Date",
  /** While a cancellation is scheduled: the plan ends then instead of renewing. */
  subscriptionEnds: "Subscription Ends",
  // Dialogs
  cancelDialogText: (end: string | null) =>
    `Your subscription stays active until ${formatDate(end)}, then the organization moves to the Free plan. You can resume it until then.`,
  confirmCancellation: "Confirm Cancellation",
  keepSubscription: "Keep Subscription",
  seatsField: "Number of seats",
  seatsHint: (allocated: number) => `${seats(allocated)} already allocated.`,
  seatsUpgradeText: "Choose how many seats your team needs. You pay at a secure checkout.",
  seatsUpdateText: "You confirm the new seat count and its price on the next page.",
  seatsEstimate: (quantity: number, total: string) => `${seats(quantity)}: ${total} per month`,
  toCheckout: "Continue to Checkout",
  dismiss: "Cancel",
  seatsMin: "Enter at least 1 seat",
  seatsWhole: "Enter a whole number of seats",
  seatsMax: (max: number) => `Enter at most ${max} seats`,
} as const;

export const PAYMENT_TEXT = {
  title: "Payment",
  verifying: "Verifying your payment…",
  verifyingHint: "This takes a few seconds. Please keep this page open.",
  failedHint: "Taking you to the cancellation page in a few seconds.",
  successTitle: "Payment Successful",
  successHint: "Your subscription is updated.",
  portalTitle: "Billing details updated",
  portalHint: "Your billing details are saved.",
  pendingHint: "The payment is confirmed, but its details are not available yet.",
  email: "Email",
  amount: "Amount",
  date: "Date",
  status: "Status",
  completed: "Completed",
  backToSubscriptions: "Back to Subscriptions",
  tryAgain: "Try Again",
  goToDashboard: "Go to Dashboard",
  viewSubscriptions: "View Subscriptions",
  cancelTitle: "Payment not completed",
  noCharge: "No charge was made.",
  causesTitle: "Common causes",
  causes: [
    "The checkout was closed or cancelled before paying",
    "The card was declined or needs extra verification",
    "The checkout session expired",
  ],
} as const;

export const SANDBOX_BILLING_TEXT = {
  badge: "Sandbox",
  checkoutTitle: "Sandbox checkout",
  checkoutExplanation:
    "This server has no Stripe keys, as in local mode, so this page stands in for Stripe's checkout. Paying here charges nothing.",
  kind: { checkout: "Upgrade to Pro", update: "Seat change" },
  plan: "Plan",
  seats: "Seats",
  unitPrice: "Price per seat and month",
  amount: "Amount",
  email: "Email",
  pay: (amount: string) => `Pay ${amount}`,
  cancel: "Cancel",
  closed: (status: string) => `This checkout is ${status}: it can no longer be paid.`,
  portalTitle: "Sandbox billing portal",
  portalExplanation:
    "This server has no Stripe keys, as in local mode, so this page stands in for Stripe's billing portal. There is no card to manage here.",
  status: "Status",
  periodEnd: "Period ends",
  cancelAt: "Cancellation scheduled for",
  noSubscription: "No subscription yet.",
  returnToApp: "Return to the app",
  backToSubscriptions: "Back to Subscriptions",
} as const;
