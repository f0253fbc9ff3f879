/**
 * Billing: the wording of billing, payment and contributor screens and of the backend's billing
 * answers (docs/product.md#payment-messages, #contributor-messages, #subscription-errors), and the
 * billing calls of the HTTP contract (docs/product.md#api) as valibot schemas, one module. Seat
 * refusals are in shared/contract/contributors.ts.
 *
 * Money is in minor units (cents) everywhere: plan prices, payment amounts and credit balances.
 * Dates are ISO 8601 strings.
 */
import * as v from "valibot";
import { ID_MAX, PLAN_VALUES, SEATS_MAX } from "../constants.ts";
import { emailSchema } from "./accounts.ts";
import { integerSchema, schema } from "./schema.ts";

export const PAYMENT_MESSAGES = {
  timedOut: "Payment verification timed out. Please contact support.",
  missingSessionId: "No payment session ID found. Invalid payment URL.",
  unableToVerify: "Unable to verify session",
  pending: "Payment verification pending",
  cancelled: "Payment was cancelled or not completed",
} as const;

export const SUBSCRIPTION_MESSAGES = {
  fetchFailed: "Failed to fetch subscription",
  requestFailed: "Subscription request failed",
  loadFailed: "Failed to load subscription",
  checkoutFailed: "Failed to create checkout session",
  checkoutError: "Error creating checkout session",
  redirectingToCheckout: "Redirecting to secure checkout...",
  invalidSubscriptionId: "Missing or invalid subscription id",
  portalFailed: "Failed to open billing portal",
  seatUpdateError: "Error updating seats",
  redirectingToConfirmation: "Redirecting to billing confirmation...",
  cancellationScheduled: "Subscription cancellation scheduled for period end",
  cancelFailed: "Failed to cancel subscription",
  resumed: "Subscription resumed",
  resumeFailed: "Failed to resume subscription",
  openingPortal: "Opening billing portal...",
  portalCreateError: "Error creating payment portal",
  portalOpenError: "Error opening payment portal",
} as const;

export const planCodeSchema = schema(() =>
  v.picklist([PLAN_VALUES.free, PLAN_VALUES.proTrial, PLAN_VALUES.paid]),
);

export type PlanCode = v.InferOutput<typeof planCodeSchema>;

export const subscriptionStatusSchema = schema(() =>
  v.picklist(["active", "trialing", "paused", "past_due", "canceled"]),
);

export type SubscriptionStatus = v.InferOutput<typeof subscriptionStatusSchema>;

/**
 * Where a trial stands: running, in its last `TRIAL_ENDING_SOON_DAYS`, over without payment
 * (downgraded to Free), or turned into a paid subscription.
 */
export const trialStatusSchema = schema(() => v.picklist(["active", "ending_soon", "ended", "converted"]));

export const planSchema = schema(() =>
  v.object({
    plan_code: planCodeSchema,
    name: v.string(),
    /** Per seat and month, in minor units; 0 for Free. */
    price: v.pipe(v.number(), v.integer(), v.minValue(0)),
    currency: v.string(),
  }),
);

export type Plan = v.InferOutput<typeof planSchema>;

/** An organisation's subscription as the backend computes it from its one clock. */
export const subscriptionSchema = schema(() =>
  v.object({
    plan: planSchema,
    status: subscriptionStatusSchema,
    /** End of the trial or of the current billing period; null on Free. */
    end: v.nullable(v.string()),
    /** Whole days until `end` (0 on its last day, negative after); null without an end. */
    daysRemaining: v.nullable(integerSchema),
    isExpired: v.boolean(),
    /** Null unless the plan is the Pro trial. */
    trialDaysRemaining: v.nullable(integerSchema),
    isTrialEndingSoon: v.boolean(),
    hasTrialEnded: v.boolean(),
    stripe_subscription_id: v.nullable(v.string()),
    org_id: v.string(),
    meta: v.object({
      /** A seat or plan change paid for at checkout but not yet confirmed. */
      pending_update: v.nullable(v.object({ new_quantity: integerSchema, new_plan_code: planCodeSchema })),
      trial: v.nullable(
        v.object({
          status: trialStatusSchema,
          converted_to_active: v.boolean(),
          isTrialing: v.boolean(),
        }),
      ),
      /** A cancellation at period end; resumable until `stripe_cancel_at`. */
      cancellation_request: v.nullable(v.object({ stripe_cancel_at: v.string() })),
    }),
  }),
);

export type Subscription = v.InferOutput<typeof subscriptionSchema>;

/** GET /api/subscription; `subscription` null is 'No subscriptions found'. */
export const subscriptionResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    subscription: v.nullable(subscriptionSchema),
  }),
);

export type SubscriptionResponse = v.InferOutput<typeof subscriptionResponseSchema>;

/** GET /api/subscription/credit: credit deducted from the next payment. */
export const creditResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    creditBalanceCents: integerSchema,
  }),
);

const orgIdSchema = schema(() => v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)));

const seatQuantitySchema = schema(() =>
  v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(SEATS_MAX)),
);

/** POST /api/subscription/stripe/create-checkout-session: upgrade to Pro with `quantity` seats. */
export const checkoutRequestSchema = schema(() =>
  v.object({
    orgId: orgIdSchema,
    quantity: seatQuantitySchema,
    email: emailSchema,
  }),
);

export type CheckoutRequest = v.InferOutput<typeof checkoutRequestSchema>;

/** POST /api/subscription/stripe/update-subscription: change the seat count of a Pro subscription. */
export const updateSubscriptionRequestSchema = schema(() =>
  v.object({
    subscriptionId: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)),
    quantity: seatQuantitySchema,
    email: emailSchema,
  }),
);

export type UpdateSubscriptionRequest = v.InferOutput<typeof updateSubscriptionRequestSchema>;

/** POST /api/subscription/stripe/cancel-subscription. Cancellation always takes effect at period end. */
export const cancelSubscriptionRequestSchema = schema(() =>
  v.object({
    orgId: orgIdSchema,
    immediate: v.optional(v.boolean()),
  }),
);

/** POST resume-subscription and customer-portal. */
export const orgRequestSchema = schema(() => v.object({ orgId: orgIdSchema }));

/** The answer of checkout, update and portal: where to send the browser. */
export const redirectResponseSchema = schema(() => v.object({ url: v.string() }));

export type RedirectResponse = v.InferOutput<typeof redirectResponseSchema>;

/** cancel-subscription and resume-subscription. */
export const billingActionResponseSchema = schema(() =>
  v.object({ success: v.boolean(), message: v.string() }),
);

export const paymentSessionSchema = schema(() =>
  v.object({
    customerEmail: v.string(),
    /** Minor units. */
    amount: integerSchema,
    currency: v.string(),
    createdAt: v.string(),
  }),
);

export type PaymentSession = v.InferOutput<typeof paymentSessionSchema>;

/**
 * GET /api/subscription/stripe/validate-session/{sessionId} (public). `isValid`: paid and applied;
 * the first such call applies it, later ones answer `alreadyProcessed` and change nothing.
 */
export const validateSessionResponseSchema = schema(() =>
  v.object({
    isValid: v.boolean(),
    alreadyProcessed: v.boolean(),
    session: v.nullable(paymentSessionSchema),
    message: v.string(),
    validationChecks: v.object({ sessionAlreadyUsed: v.boolean() }),
  }),
);

export type ValidateSessionResponse = v.InferOutput<typeof validateSessionResponseSchema>;

/**
 * The sandbox's stand-in for Stripe's hosted checkout (local default without Stripe keys): one
 * open payment session as its page shows it. 404 when billing goes through Stripe.
 */
export const sandboxCheckoutSchema = schema(() =>
  v.object({
    id: v.string(),
    kind: v.picklist(["checkout", "update"]),
    planName: v.string(),
    quantity: integerSchema,
    /** Per seat and month, minor units. */
    unitAmount: integerSchema,
    /** `unitAmount` x `quantity`. */
    amount: integerSchema,
    currency: v.string(),
    customerEmail: v.string(),
    status: v.picklist(["open", "complete", "expired"]),
  }),
);

export type SandboxCheckout = v.InferOutput<typeof sandboxCheckoutSchema>;

export const sandboxCheckoutResponseSchema = schema(() =>
  v.object({ success: v.boolean(), data: sandboxCheckoutSchema }),
);
