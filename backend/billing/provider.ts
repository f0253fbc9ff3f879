/**
 * The billing port: what the subscription routes ask of whoever takes the money. Two adapters:
 * Stripe (stripe.ts) when STRIPE_SECRET_KEY is set, else the sandbox (sandbox.ts), which stands in
 * for Stripe's hosted pages with our own /sandbox pages so billing works on one machine
 * (docs/decisions/011-billing.md). Our database stays the record of what was applied; the provider
 * is asked what was paid.
 */
import type { Selectable } from "kysely";
import type { PaymentSessionsTable } from "../db/schema.ts";
import type { SubscriptionRow } from "./subscription-view.ts";
import type { PaidSession } from "./subscriptions.ts";

export type PaymentSessionRow = Selectable<PaymentSessionsTable>;

export interface CheckoutStart {
  orgId: string;
  quantity: number;
  email: string;
  /** The organisation's customer at the provider, when it has been one before. */
  customerId: string | null;
}

export interface SeatUpdateStart {
  subscription: SubscriptionRow & { stripe_subscription_id: string };
  quantity: number;
}

export interface PortalCustomer {
  email: string;
  returnUrl: string;
}

/** A session the browser is sent to: the provider's id for it and its page. */
export interface StartedSession {
  id: string;
  url: string;
}

export type SessionOutcome = { state: "paid"; paid: PaidSession } | { state: "open" } | { state: "expired" };

/** What a scheduled cancellation or a resume leaves: the date the subscription now ends, if any. */
export interface CancellationState {
  cancelAt: Date | null;
}

export interface BillingProvider {
  readonly kind: "sandbox" | "stripe";
  /** A checkout that buys Pro with `quantity` seats. */
  startCheckout(start: CheckoutStart): Promise<StartedSession>;
  /** A confirmation page for a new seat count of a paid subscription. */
  startSeatUpdate(start: SeatUpdateStart): Promise<StartedSession>;
  /** Whether a session was paid (and for what), is still open, or lapsed. */
  outcome(session: PaymentSessionRow, subscription: SubscriptionRow): Promise<SessionOutcome>;
  /** Cancels at period end; Argus never cancels at once (docs/product.md#where-we-differ). */
  cancelAtPeriodEnd(subscription: SubscriptionRow): Promise<CancellationState>;
  resume(subscription: SubscriptionRow): Promise<CancellationState>;
  /**
   * Where the customer manages payment methods and invoices; it returns to `returnUrl`. Answers
   * the customer too, which the provider may have had to create for an organisation that never paid.
   */
  portal(
    subscription: SubscriptionRow,
    customer: PortalCustomer,
  ): Promise<{ url: string; customerId: string | null }>;
  /** Credit deducted from the next payment, minor units. */
  creditBalanceCents(subscription: SubscriptionRow): Promise<number>;
}

/** The provider refused or failed; the routes answer 502 without its details. */
export class BillingProviderError extends Error {
  override name = "BillingProviderError";
}
