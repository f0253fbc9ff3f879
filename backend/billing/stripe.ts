/**
 * The Stripe adapter of the billing port, on the official SDK. Checkout is Stripe Checkout in
 * subscription mode (one line: the configured price, per seat); a seat change is the customer
 * portal's "subscription update confirm" flow, which shows the new amount before anything changes;
 * cancelling sets cancel_at_period_end. Stripe's later changes (renewals, failed payments, portal
 * edits) arrive as webhooks (routes/stripe-webhooks.ts).
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import type { BillingProvider, SessionOutcome } from "./provider.ts";
import { BillingProviderError } from "./provider.ts";

export interface StripeSettings {
  secretKey: string;
  /** The recurring per-seat price that Pro is sold at. */
  priceId: string;
  /** Signs the webhook deliveries; unset, /webhooks/stripe answers 503. */
  webhookSecret?: string | undefined;
  /** STRIPE_API_URL: another API host (a local fake in tests); Stripe's own by default. */
  apiUrl?: string | undefined;
}

/** Stripe answers within seconds; a page waits for this call, so it must not hang. */
const STRIPE_TIMEOUT_MS = 20_000;

export function createStripeClient(settings: StripeSettings): Stripe {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  const protocol = api?.protocol === "http:" ? "http" : "https";
  return new Stripe(settings.secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    ...(api && { host: api.hostname, port: api.port || (protocol === "http" ? 80 : 443), protocol }),
  });
}

const idOf = (value: string | { id: string } | null): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** The period end of a subscription: on its (only) item since Stripe's 2025 API versions. */
function periodEndOf(subscription: Stripe.Subscription): Date | null {
  const end = subscription.items.data[0]?.current_period_end;
  return end ? new Date(end * 1000) : null;
}

function cancelAtOf(subscription: Stripe.Subscription): Date | null {
  if (subscription.cancel_at) return new Date(subscription.cancel_at * 1000);
  return subscription.cancel_at_period_end ? periodEndOf(subscription) : null;
}

/** Any failure of Stripe's (refusal, outage) becomes one error; the message goes to the log only. */
async function atStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw new BillingProviderError(`Stripe: ${error.type} ${error.code ?? ""} ${error.message}`.trim(), {
        cause: error,
      });
    }
    throw error;
  }
}

export function createStripeBilling(
  stripe: Stripe,
  settings: StripeSettings,
  publicOrigin: string,
): BillingProvider {
  // Stripe fills in {CHECKOUT_SESSION_ID}; it must stay unencoded in the URL.
  const successUrl = (sessionId: string) => `${publicOrigin}/payment-success?session_id=${sessionId}`;

  return {
    kind: "stripe",
    startCheckout: ({ orgId, quantity, email, customerId }) =>
      atStripe(async () => {
        const session = await stripe.checkout.sessions.create({
          mode: "subscription",
          line_items: [{ price: settings.priceId, quantity }],
          ...(customerId ? { customer: customerId } : { customer_email: email }),
          client_reference_id: orgId,
          metadata: { org_id: orgId },
          subscription_data: { metadata: { org_id: orgId } },
          success_url: successUrl("{CHECKOUT_SESSION_ID}"),
          cancel_url: `${publicOrigin}/payment-cancel`,
        });
        if (!session.url) throw new BillingProviderError("Stripe: the checkout session has no url");
        return { id: session.id, url: session.url };
      }),

    startSeatUpdate: ({ subscription, quantity }) =>
      atStripe(async () => {
        const current = await stripe.subscriptions.retrieve(subscription.stripe_subscription_id);
        const item = current.items.data[0];
        const customer = idOf(current.customer);
        if (!item || !customer) throw new BillingProviderError("Stripe: the subscription has no item");
        // The portal session's id is not known before it exists, so the return names our own.
        const id = `seats_${randomBytes(12).toString("hex")}`;
        const portal = await stripe.billingPortal.sessions.create({
          customer,
          return_url: `${publicOrigin}/subscriptions`,
          flow_data: {
            type: "subscription_update_confirm",
            subscription_update_confirm: {
              subscription: current.id,
              items: [{ id: item.id, quantity, price: settings.priceId }],
            },
            after_completion: { type: "redirect", redirect: { return_url: successUrl(id) } },
          },
        });
        return { id, url: portal.url };
      }),

    outcome: (session, subscription) =>
      atStripe(async (): Promise<SessionOutcome> => {
        if (session.kind === "update") {
          // Confirmed in the portal: the subscription now has the new quantity.
          if (!subscription.stripe_subscription_id) return { state: "expired" };
          const current = await stripe.subscriptions.retrieve(subscription.stripe_subscription_id);
          if (current.items.data[0]?.quantity !== session.quantity) return { state: "open" };
          return {
            state: "paid",
            paid: {
              subscriptionId: current.id,
              customerId: idOf(current.customer),
              periodEnd: periodEndOf(current),
            },
          };
        }
        const checkout = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] });
        if (checkout.status === "expired") return { state: "expired" };
        const paid = checkout.payment_status === "paid" || checkout.payment_status === "no_payment_required";
        const bought = checkout.subscription;
        if (checkout.status !== "complete" || !paid || !bought || typeof bought === "string")
          return { state: "open" };
        return {
          state: "paid",
          paid: {
            subscriptionId: bought.id,
            customerId: idOf(checkout.customer),
            periodEnd: periodEndOf(bought),
          },
        };
      }),

    cancelAtPeriodEnd: (subscription) =>
      atStripe(async () => {
        if (!subscription.stripe_subscription_id) throw new BillingProviderError("No Stripe subscription");
        const updated = await stripe.subscriptions.update(subscription.stripe_subscription_id, {
          cancel_at_period_end: true,
        });
        return { cancelAt: cancelAtOf(updated) };
      }),

    resume: (subscription) =>
      atStripe(async () => {
        if (!subscription.stripe_subscription_id) throw new BillingProviderError("No Stripe subscription");
        const updated = await stripe.subscriptions.update(subscription.stripe_subscription_id, {
          cancel_at_period_end: false,
        });
        return { cancelAt: cancelAtOf(updated) };
      }),

    portal: (subscription, { email, returnUrl }) =>
      atStripe(async () => {
        // An organisation that never paid has no customer yet: adding a card makes one.
        const customerId =
          subscription.stripe_customer_id ??
          (await stripe.customers.create({ email, metadata: { org_id: subscription.org_id } })).id;
        const portal = await stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl,
        });
        return { url: portal.url, customerId };
      }),

    creditBalanceCents: (subscription) =>
      atStripe(async () => {
        if (!subscription.stripe_customer_id) return subscription.credit_balance_cents;
        const customer = await stripe.customers.retrieve(subscription.stripe_customer_id);
        // Stripe's balance is what the customer owes: negative is credit.
        if (customer.deleted) return 0;
        return Math.max(0, -customer.balance);
      }),
  };
}
