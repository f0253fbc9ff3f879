/**
 * POST /webhooks/stripe: Stripe's deliveries. Only an event whose Stripe-Signature verifies with
 * STRIPE_WEBHOOK_SECRET over the raw body is read (400 otherwise, as Stripe's docs answer), each
 * event id takes effect once (billing_events), and only what keeps the subscriptions row true is
 * handled: the subscription changed or ended, an invoice was paid or its payment failed, and a
 * checkout completed (settled as validate-session would, for a browser that never came back).
 */
import express, { type Router } from "express";
import { sql } from "kysely";
import type Stripe from "stripe";
import type { SubscriptionStatus } from "../../shared/contract/billing.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { atProvider, type BillingDeps } from "../billing/billing-deps.ts";
import { settleSession } from "../billing/settle.ts";
import { releaseSeats } from "../billing/subscriptions.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";

/** Stripe caps event payloads well below this. */
const WEBHOOK_BODY_LIMIT = "1mb";

/** Stripe's subscription statuses in the contract's terms. */
const STATUSES: Record<Stripe.Subscription.Status, SubscriptionStatus> = {
  active: "active",
  trialing: "trialing",
  paused: "paused",
  past_due: "past_due",
  unpaid: "past_due",
  incomplete: "past_due",
  canceled: "canceled",
  incomplete_expired: "canceled",
};

const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

function subscriptionIdOf(invoice: Stripe.Invoice): string | null {
  const subscription = invoice.parent?.subscription_details?.subscription;
  return typeof subscription === "string" ? subscription : (subscription?.id ?? null);
}

/**
 * Stripe delivers events in no particular order (a retry comes late), and each carries the
 * subscription as it was when the event was created. So an update is applied only when it is not
 * older than the last subscription event applied (`stripe_event_at`; the same second counts as not
 * older, since `created` has no finer grain), and never to a subscription that ended: Stripe does
 * not restart a canceled subscription, a new checkout makes a new one.
 */
async function subscriptionChanged(
  trx: Db,
  subscription: Stripe.Subscription,
  created: Date,
  now: Date,
): Promise<void> {
  const item = subscription.items.data[0];
  const periodEnd = toDate(item?.current_period_end);
  const cancelAt = toDate(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? periodEnd : null);
  const quantity = item?.quantity ?? null;
  await trx
    .updateTable("subscriptions")
    .set({
      status: STATUSES[subscription.status],
      cancel_at: cancelAt,
      stripe_event_at: created,
      updated_at: now,
      ...(periodEnd && { current_period_end: periodEnd }),
      ...(quantity !== null && {
        // A seat count lowered in the portal never drops below the seats held.
        seats_total: sql<number>`greatest(${quantity}, seats_allocated)`,
        pending_quantity: sql<
          number | null
        >`case when pending_quantity = ${quantity} then null else pending_quantity end`,
        pending_plan_code: sql<null>`case when pending_quantity = ${quantity} then null else pending_plan_code end`,
      }),
    })
    .where("stripe_subscription_id", "=", subscription.id)
    .where("status", "!=", "canceled")
    .where((row) => row.or([row("stripe_event_at", "is", null), row("stripe_event_at", "<=", created)]))
    .execute();
}

/** The end is final, whatever arrived before it. */
async function subscriptionEnded(
  trx: Db,
  subscription: Stripe.Subscription,
  created: Date,
  now: Date,
): Promise<void> {
  const ended = await trx
    .updateTable("subscriptions")
    .set({
      status: "canceled",
      seats_allocated: 0,
      pending_quantity: null,
      pending_plan_code: null,
      stripe_event_at: sql<Date>`greatest(stripe_event_at, ${created})`,
      updated_at: now,
    })
    .where("stripe_subscription_id", "=", subscription.id)
    .returning("org_id")
    .executeTakeFirst();
  if (ended) await releaseSeats(trx, ended.org_id);
}

async function invoiceSettled(trx: Db, invoice: Stripe.Invoice, paid: boolean, now: Date): Promise<void> {
  const subscriptionId = subscriptionIdOf(invoice);
  if (!subscriptionId) return;
  const periodEnd = toDate(invoice.lines.data[0]?.period.end);
  await trx
    .updateTable("subscriptions")
    .set({
      status: paid ? "active" : "past_due",
      updated_at: now,
      ...(paid && periodEnd && { current_period_end: periodEnd }),
    })
    .where("stripe_subscription_id", "=", subscriptionId)
    .where("status", "!=", "canceled")
    .execute();
}

async function apply(trx: Db, event: Stripe.Event, now: Date): Promise<void> {
  const created = new Date(event.created * 1000);
  switch (event.type) {
    case "customer.subscription.updated":
      return subscriptionChanged(trx, event.data.object, created, now);
    case "customer.subscription.deleted":
      return subscriptionEnded(trx, event.data.object, created, now);
    case "invoice.paid":
      return invoiceSettled(trx, event.data.object, true, now);
    case "invoice.payment_failed":
      return invoiceSettled(trx, event.data.object, false, now);
    default:
      return;
  }
}

/**
 * A completed checkout is settled like validate-session settles it: idempotent by itself (the
 * session's `processed_at`), and outside the event's transaction, which it would otherwise wait on.
 */
async function checkoutCompleted(billing: BillingDeps, checkout: Stripe.Checkout.Session): Promise<boolean> {
  const session = await billing.db
    .selectFrom("payment_sessions")
    .selectAll()
    .where("id", "=", checkout.id)
    .executeTakeFirst();
  return session !== undefined && (await settleSession(billing, session)) === "applied";
}

/** `stripe` undefined (no Stripe, or no STRIPE_WEBHOOK_SECRET): the endpoint answers 503. */
export function stripeWebhooksRouter(
  billing: BillingDeps,
  stripe: { client: Stripe; webhookSecret: string } | undefined,
): Router {
  const { db, clock } = billing;
  const router = strictRouter();
  // The signature covers the exact bytes, so this route reads the raw body, not parsed JSON.
  router.post(
    API_PATHS.stripeWebhook,
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      if (!stripe) {
        throw new HttpError(503, { error: "Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)" });
      }
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event: Stripe.Event;
      try {
        event = stripe.client.webhooks.constructEvent(
          body,
          req.get("stripe-signature") ?? "",
          stripe.webhookSecret,
        );
      } catch {
        throw new HttpError(400, { error: "Invalid webhook signature" });
      }
      if (event.type === "checkout.session.completed") {
        const applied = await atProvider(
          res,
          () => checkoutCompleted(billing, event.data.object),
          "Stripe could not be asked about the checkout",
        );
        res.json({ received: true, duplicate: !applied });
        return;
      }
      const applied = await db.transaction().execute(async (trx) => {
        const first = await trx
          .insertInto("billing_events")
          .values({ id: event.id, type: event.type })
          .onConflict((conflict) => conflict.column("id").doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!first) return false;
        await apply(trx, event, clock());
        return true;
      });
      res.json({ received: true, duplicate: !applied });
    },
  );
  return router;
}
