/**
 * The subscription of the caller's organisation and the calls that change it
 * (docs/product.md#subscriptions): the plan as computed now, credit, seat counts, checkout, seat
 * changes, cancel at period end, resume and the billing portal. Money moves at the billing
 * provider (billing/provider.ts); what was paid is applied by validate-session
 * (routes/payment-sessions.ts) and by Stripe's webhooks.
 */

import type { Response, Router } from "express";
import type * as v from "valibot";
import { PLAN_VALUES } from "../../shared/constants.ts";
import {
  type billingActionResponseSchema,
  cancelSubscriptionRequestSchema,
  checkoutRequestSchema,
  type creditResponseSchema,
  orgRequestSchema,
  type RedirectResponse,
  SUBSCRIPTION_MESSAGES,
  type SubscriptionResponse,
  updateSubscriptionRequestSchema,
} from "../../shared/contract/billing.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { seatStatusResponseSchema } from "../../shared/contract/contributors.ts";
import { SEAT_MESSAGES } from "../../shared/contract/contributors.ts";
import { sessionOf } from "../auth/require-session.ts";
import { atProvider, type BillingDeps } from "../billing/billing-deps.ts";
import type { StartedSession } from "../billing/provider.ts";
import { type SubscriptionRow, subscriptionView } from "../billing/subscription-view.ts";
import { currentSubscription } from "../billing/subscriptions.ts";
import { seatStatusOf } from "../contributors/seats.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

type BillingAction = v.InferOutput<typeof billingActionResponseSchema>;

function ownOrganisation(res: Response, orgId: string): string {
  const { org } = sessionOf(res);
  if (orgId !== org.id) {
    throw new HttpError(403, { error: "You can only manage the subscription of your own organization." });
  }
  return org.id;
}

/** A Pro subscription that has not ended: the one a seat change, cancel or resume applies to. */
const isLivePro = (row: SubscriptionRow) => row.plan_code === PLAN_VALUES.paid && row.status !== "canceled";

export function subscriptionRouter(deps: BillingDeps): Router {
  const { db, provider, clock, prices } = deps;
  const router = strictRouter();

  async function subscriptionOf(orgId: string): Promise<SubscriptionRow> {
    const row = await currentSubscription(db, orgId, clock());
    if (!row) throw new HttpError(404, { error: "No subscriptions found" });
    return row;
  }

  /** Writes `changes` to the organisation's subscription, stamped with the time. */
  async function updateSubscription(
    orgId: string,
    changes: { cancel_at?: Date | null; stripe_customer_id?: string },
  ): Promise<void> {
    await db
      .updateTable("subscriptions")
      .set({ ...changes, updated_at: clock() })
      .where("org_id", "=", orgId)
      .execute();
  }

  function atLeastAllocated(row: SubscriptionRow, quantity: number): void {
    if (quantity < row.seats_allocated) throw new HttpError(400, { error: SEAT_MESSAGES.belowAllocated });
  }

  async function recordSession(
    row: SubscriptionRow,
    started: StartedSession,
    kind: "checkout" | "update",
    quantity: number,
    email: string,
  ): Promise<RedirectResponse> {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("payment_sessions")
        .values({
          id: started.id,
          org_id: row.org_id,
          kind,
          plan_code: PLAN_VALUES.paid,
          quantity,
          unit_amount: prices.seatPriceCents,
          currency: prices.currency,
          customer_email: email,
          status: "open",
        })
        .execute();
      if (kind === "update") {
        await trx
          .updateTable("subscriptions")
          .set({ pending_quantity: quantity, pending_plan_code: PLAN_VALUES.paid, updated_at: clock() })
          .where("org_id", "=", row.org_id)
          .execute();
      }
    });
    return { url: started.url };
  }

  /** Buys Pro with `quantity` seats: the organisation's first payment, or its return after an end. */
  async function checkout(res: Response, row: SubscriptionRow, quantity: number, email: string) {
    atLeastAllocated(row, quantity);
    const started = await atProvider(
      res,
      () =>
        provider.startCheckout({ orgId: row.org_id, quantity, email, customerId: row.stripe_customer_id }),
      SUBSCRIPTION_MESSAGES.checkoutFailed,
    );
    return recordSession(row, started, "checkout", quantity, email);
  }

  router.get(API_PATHS.subscription, async (_req, res) => {
    const { org, readVersion } = sessionOf(res);
    const row = await currentSubscription(db, org.id, clock(), readVersion);
    res.json({
      success: true,
      subscription: row ? subscriptionView(row, clock(), prices) : null,
    } satisfies SubscriptionResponse);
  });

  router.get(API_PATHS.subscriptionCredit, async (_req, res) => {
    const row = await subscriptionOf(sessionOf(res).org.id);
    const creditBalanceCents = await atProvider(
      res,
      () => provider.creditBalanceCents(row),
      SUBSCRIPTION_MESSAGES.fetchFailed,
    );
    res.json({ success: true, creditBalanceCents } satisfies v.InferOutput<typeof creditResponseSchema>);
  });

  router.get(API_PATHS.seatStatus, async (_req, res) => {
    const { org, readVersion } = sessionOf(res);
    const row = await currentSubscription(db, org.id, clock(), readVersion);
    res.json({
      success: true,
      data: seatStatusOf(row),
    } satisfies v.InferOutput<typeof seatStatusResponseSchema>);
  });

  router.post(API_PATHS.checkoutSession, async (req, res) => {
    const body = parseRequest(checkoutRequestSchema, req.body);
    const row = await subscriptionOf(ownOrganisation(res, body.orgId));
    if (isLivePro(row)) {
      throw new HttpError(409, { error: "This organization already has Pro. Update its seats instead." });
    }
    res.json(await checkout(res, row, body.quantity, body.email));
  });

  router.post(API_PATHS.updateSubscription, async (req, res) => {
    const body = parseRequest(updateSubscriptionRequestSchema, req.body);
    const row = await subscriptionOf(sessionOf(res).org.id);
    // The trial has no provider subscription yet: the page may name it by the organisation.
    if (body.subscriptionId !== row.stripe_subscription_id && body.subscriptionId !== row.org_id) {
      throw new HttpError(400, { error: SUBSCRIPTION_MESSAGES.invalidSubscriptionId });
    }
    const subscriptionId = row.stripe_subscription_id;
    if (!isLivePro(row) || !subscriptionId) {
      res.json(await checkout(res, row, body.quantity, body.email));
      return;
    }
    atLeastAllocated(row, body.quantity);
    const started = await atProvider(
      res,
      () =>
        provider.startSeatUpdate({
          subscription: { ...row, stripe_subscription_id: subscriptionId },
          quantity: body.quantity,
        }),
      SUBSCRIPTION_MESSAGES.seatUpdateError,
    );
    res.json(await recordSession(row, started, "update", body.quantity, body.email));
  });

  router.post(API_PATHS.cancelSubscription, async (req, res) => {
    // `immediate` is accepted and ignored: cancellation always waits for the period end.
    const body = parseRequest(cancelSubscriptionRequestSchema, req.body);
    const row = await subscriptionOf(ownOrganisation(res, body.orgId));
    if (!isLivePro(row)) throw new HttpError(400, { error: "Only a Pro subscription can be cancelled." });
    const { cancelAt } = await atProvider(
      res,
      () => provider.cancelAtPeriodEnd(row),
      SUBSCRIPTION_MESSAGES.cancelFailed,
    );
    await updateSubscription(row.org_id, { cancel_at: cancelAt ?? row.current_period_end });
    res.json({ success: true, message: SUBSCRIPTION_MESSAGES.cancellationScheduled } satisfies BillingAction);
  });

  router.post(API_PATHS.resumeSubscription, async (req, res) => {
    const body = parseRequest(orgRequestSchema, req.body);
    const row = await subscriptionOf(ownOrganisation(res, body.orgId));
    // Once the cancellation date has passed the subscription is canceled (billing/subscriptions.ts).
    if (row.plan_code === PLAN_VALUES.paid && row.status === "canceled") {
      throw new HttpError(400, { error: "The subscription has ended and can no longer be resumed." });
    }
    if (!isLivePro(row) || !row.cancel_at) {
      throw new HttpError(400, { error: "There is no scheduled cancellation to resume." });
    }
    const { cancelAt } = await atProvider(
      res,
      () => provider.resume(row),
      SUBSCRIPTION_MESSAGES.resumeFailed,
    );
    await updateSubscription(row.org_id, { cancel_at: cancelAt });
    res.json({ success: true, message: SUBSCRIPTION_MESSAGES.resumed } satisfies BillingAction);
  });

  router.post(API_PATHS.customerPortal, async (req, res) => {
    const body = parseRequest(orgRequestSchema, req.body);
    const row = await subscriptionOf(ownOrganisation(res, body.orgId));
    const returnUrl = new URL("/payment-success", deps.publicOrigin);
    returnUrl.search = new URLSearchParams({ portal: "1" }).toString();
    const portal = await atProvider(
      res,
      () => provider.portal(row, { email: sessionOf(res).user.email, returnUrl: returnUrl.toString() }),
      SUBSCRIPTION_MESSAGES.portalCreateError,
    );
    if (portal.customerId && portal.customerId !== row.stripe_customer_id) {
      await updateSubscription(row.org_id, { stripe_customer_id: portal.customerId });
    }
    res.json({ url: portal.url } satisfies RedirectResponse);
  });

  return router;
}
