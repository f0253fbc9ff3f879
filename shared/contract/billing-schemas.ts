/** The zod schemas of shared/contract/billing.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { EMAIL_MAX, ID_MAX, PLAN_VALUES, SEATS_MAX } from "../constants.ts";

/**
 * The billing, contributor and seat calls of the HTTP contract (docs/product.md#api), as zod schemas.
 * Kept beside shared/contract/ so the pages that do not bill never load them.
 *
 * Money is in minor units (cents) everywhere: plan prices, payment amounts and credit balances.
 * Dates are ISO 8601 strings.
 */

export const planCodeSchema = z.enum([PLAN_VALUES.free, PLAN_VALUES.proTrial, PLAN_VALUES.paid]);

export type PlanCode = z.infer<typeof planCodeSchema>;

export const subscriptionStatusSchema = z.enum(["active", "trialing", "paused", "past_due", "canceled"]);

export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/**
 * Where a trial stands: running, in its last `TRIAL_ENDING_SOON_DAYS`, over without payment
 * (downgraded to Free), or turned into a paid subscription.
 */
export const trialStatusSchema = z.enum(["active", "ending_soon", "ended", "converted"]);

export const planSchema = z.object({
  plan_code: planCodeSchema,
  name: z.string(),
  /** Per seat and month, in minor units; 0 for Free. */
  price: z.number().int().nonnegative(),
  currency: z.string(),
});

export type Plan = z.infer<typeof planSchema>;

/** An organisation's subscription as the backend computes it from its one clock. */
export const subscriptionSchema = z.object({
  plan: planSchema,
  status: subscriptionStatusSchema,
  /** End of the trial or of the current billing period; null on Free. */
  end: z.string().nullable(),
  /** Whole days until `end` (0 on its last day, negative after); null without an end. */
  daysRemaining: z.number().int().nullable(),
  isExpired: z.boolean(),
  /** Null unless the plan is the Pro trial. */
  trialDaysRemaining: z.number().int().nullable(),
  isTrialEndingSoon: z.boolean(),
  hasTrialEnded: z.boolean(),
  stripe_subscription_id: z.string().nullable(),
  org_id: z.string(),
  meta: z.object({
    /** A seat or plan change paid for at checkout but not yet confirmed. */
    pending_update: z.object({ new_quantity: z.number().int(), new_plan_code: planCodeSchema }).nullable(),
    trial: z
      .object({
        status: trialStatusSchema,
        converted_to_active: z.boolean(),
        isTrialing: z.boolean(),
      })
      .nullable(),
    /** A cancellation at period end; resumable until `stripe_cancel_at`. */
    cancellation_request: z.object({ stripe_cancel_at: z.string() }).nullable(),
  }),
});

export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/subscription; `subscription` null is 'No subscriptions found'. */
export const subscriptionResponseSchema = z.object({
  success: z.boolean(),
  subscription: subscriptionSchema.nullable(),
});

export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

/** GET /api/subscription/credit: credit deducted from the next payment. */
export const creditResponseSchema = z.object({
  success: z.boolean(),
  creditBalanceCents: z.number().int(),
});

const orgIdSchema = z.string().min(1).max(ID_MAX);

const seatQuantitySchema = z.number().int().min(1).max(SEATS_MAX);

/** POST /api/subscription/stripe/create-checkout-session: upgrade to Pro with `quantity` seats. */
export const checkoutRequestSchema = z.object({
  orgId: orgIdSchema,
  quantity: seatQuantitySchema,
  email: z.email().max(EMAIL_MAX),
});

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** POST /api/subscription/stripe/update-subscription: change the seat count of a Pro subscription. */
export const updateSubscriptionRequestSchema = z.object({
  subscriptionId: z.string().min(1).max(ID_MAX),
  quantity: seatQuantitySchema,
  email: z.email().max(EMAIL_MAX),
});

export type UpdateSubscriptionRequest = z.infer<typeof updateSubscriptionRequestSchema>;

/** POST /api/subscription/stripe/cancel-subscription. Cancellation always takes effect at period end. */
export const cancelSubscriptionRequestSchema = z.object({
  orgId: orgIdSchema,
  immediate: z.boolean().optional(),
});

/** POST resume-subscription and customer-portal. */
export const orgRequestSchema = z.object({ orgId: orgIdSchema });

/** The answer of checkout, update and portal: where to send the browser. */
export const redirectResponseSchema = z.object({ url: z.string() });

export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

/** cancel-subscription and resume-subscription. */
export const billingActionResponseSchema = z.object({ success: z.boolean(), message: z.string() });

export const paymentSessionSchema = z.object({
  customerEmail: z.string(),
  /** Minor units. */
  amount: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
});

export type PaymentSession = z.infer<typeof paymentSessionSchema>;

/**
 * GET /api/subscription/stripe/validate-session/{sessionId} (public). `isValid`: paid and applied;
 * the first such call applies it, later ones answer `alreadyProcessed` and change nothing.
 */
export const validateSessionResponseSchema = z.object({
  isValid: z.boolean(),
  alreadyProcessed: z.boolean(),
  session: paymentSessionSchema.nullable(),
  message: z.string(),
  validationChecks: z.object({ sessionAlreadyUsed: z.boolean() }),
});

export type ValidateSessionResponse = z.infer<typeof validateSessionResponseSchema>;

/**
 * The sandbox's stand-in for Stripe's hosted checkout (local default without Stripe keys): one
 * open payment session as its page shows it. 404 when billing goes through Stripe.
 */
export const sandboxCheckoutSchema = z.object({
  id: z.string(),
  kind: z.enum(["checkout", "update"]),
  planName: z.string(),
  quantity: z.number().int(),
  /** Per seat and month, minor units. */
  unitAmount: z.number().int(),
  /** `unitAmount` x `quantity`. */
  amount: z.number().int(),
  currency: z.string(),
  customerEmail: z.string(),
  status: z.enum(["open", "complete", "expired"]),
});

export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

export const sandboxCheckoutResponseSchema = z.object({ success: z.boolean(), data: sandboxCheckoutSchema });
