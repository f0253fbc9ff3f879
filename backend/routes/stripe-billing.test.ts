/**
 * Billing through Stripe, against the local fake of its API (tests/support/fake-stripe.ts), on each
 * database: checkout and its validation, the seat-update confirmation, cancel at period end and
 * resume, the portal, credit, and signed webhooks (a wrong signature refused, a replay harmless).
 */

import Stripe from "stripe";
import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_VALUES } from "../../shared/constants.ts";
import {
  creditResponseSchema,
  PAYMENT_MESSAGES,
  redirectResponseSchema,
  SUBSCRIPTION_MESSAGES,
  subscriptionResponseSchema,
  validateSessionResponseSchema,
} from "../../shared/contract/billing.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type FakeStripe, startFakeStripe } from "../../tests/support/fake-stripe.ts";
import { bearerCalls, testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";

const ORIGIN = "https://argus.example";
const WEBHOOK_SECRET = "whsec_test_secret_for_argus";
/** Only signs test events; it never calls Stripe. */
const signer = new Stripe("sk_test_signer");

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    backend = await backends.start({
      PUBLIC_ORIGIN: ORIGIN,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PRICE_ID: stripe.priceId,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    });
  });
  afterAll(async () => {
    await backends.stop();
    await stripe?.close();
  });

  const calls = bearerCalls(() => backend.app);
  const get = (path: string, token: string) => calls.get(token, path);
  const post = (path: string, token: string, body: object = {}) => calls.post(token, path, body);
  const validate = async (sessionId: string) =>
    v.parse(
      validateSessionResponseSchema,
      (await request(backend.app).get(API_PATHS.validateSession(sessionId))).body,
    );
  async function subscription(token: string) {
    const { subscription } = v.parse(
      subscriptionResponseSchema,
      (await get(API_PATHS.subscription, token)).body,
    );
    if (!subscription) throw new Error("no subscription");
    return subscription;
  }

  /** An organisation that bought Pro with `quantity` seats at Stripe. */
  async function subscribed(name: string, quantity: number) {
    const account = await signedInAccount(backend, name);
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity,
      email: `${name}@example.com`,
    });
    expect(started.status).toBe(200);
    const { url } = v.parse(redirectResponseSchema, started.body);
    const session = [...stripe.checkoutSessions.values()].find((candidate) => candidate.url === url);
    if (!session) throw new Error("the answer's url is not a Stripe checkout session's");
    const stripeSubscription = stripe.payCheckout(session.id);
    expect((await validate(session.id)).alreadyProcessed).toBe(false);
    return { ...account, sessionId: session.id, stripeSubscription };
  }

  async function deliver(event: object, signature?: string) {
    const payload = JSON.stringify(event);
    const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return request(backend.app)
      .post(API_PATHS.stripeWebhook)
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", header)
      .send(payload);
  }
  const event = (id: string, type: string, object: object, created = Math.floor(Date.now() / 1000)) => ({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });

  it("creates a Checkout session, waits while it is unpaid, and activates Pro once it is paid", async () => {
    const account = await signedInAccount(backend, "stripe-checkout");
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity: 4,
      email: "buyer@example.com",
    });
    const { url } = v.parse(redirectResponseSchema, started.body);
    const session = [...stripe.checkoutSessions.values()].find((candidate) => candidate.url === url);
    expect(session).toMatchObject({
      mode: "subscription",
      customer_email: "buyer@example.com",
      client_reference_id: account.orgId,
      metadata: { org_id: account.orgId },
      success_url: `${ORIGIN}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${ORIGIN}/payment-cancel`,
      line: { price: stripe.priceId, quantity: 4 },
    });
    const sessionId = session?.id ?? "";
    expect(await validate(sessionId)).toMatchObject({ isValid: false, message: PAYMENT_MESSAGES.pending });

    const paid = stripe.payCheckout(sessionId);
    expect(await validate(sessionId)).toMatchObject({ isValid: true, alreadyProcessed: false });
    expect(await validate(sessionId)).toMatchObject({ isValid: true, alreadyProcessed: true });
    const pro = await subscription(account.token);
    expect(pro).toMatchObject({
      plan: { plan_code: PLAN_VALUES.paid },
      status: "active",
      stripe_subscription_id: paid.id,
      meta: { trial: { status: "converted", converted_to_active: true } },
    });
    expect(pro.end).toBe(new Date((paid.items.data[0]?.current_period_end ?? 0) * 1000).toISOString());
    // With Stripe the sandbox's pages do not exist.
    expect((await get(API_PATHS.sandboxCheckout(sessionId), account.token)).status).toBe(404);
    expect((await get(API_PATHS.sandboxPortal, account.token)).status).toBe(404);
  });

  it("treats an expired Checkout session as not paid", async () => {
    const account = await signedInAccount(backend, "stripe-expired");
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity: 1,
      email: "buyer@example.com",
    });
    const session = [...stripe.checkoutSessions.values()].find(
      (candidate) => candidate.url === started.body.url,
    );
    stripe.expireCheckout(session?.id ?? "");
    expect(await validate(session?.id ?? "")).toMatchObject({
      isValid: false,
      message: PAYMENT_MESSAGES.cancelled,
    });
    expect((await subscription(account.token)).plan.plan_code).toBe(PLAN_VALUES.proTrial);
  });

  it("changes seats through the portal's confirmation flow", async () => {
    const account = await subscribed("stripe-seats", 2);
    const started = await post(API_PATHS.updateSubscription, account.token, {
      subscriptionId: account.stripeSubscription.id,
      quantity: 6,
      email: "buyer@example.com",
    });
    expect(started.status).toBe(200);
    const portal = stripe.portalSessions.find((candidate) => candidate.url === started.body.url);
    expect(portal?.flow).toMatchObject({
      type: "subscription_update_confirm",
      subscription_update_confirm: {
        subscription: account.stripeSubscription.id,
        items: { 0: { id: account.stripeSubscription.items.data[0]?.id, quantity: "6" } },
      },
    });
    const redirect = portal?.flow?.after_completion.redirect;
    const returnUrl = new URL(typeof redirect === "object" ? String(redirect.return_url) : "about:blank");
    expect(`${returnUrl.origin}${returnUrl.pathname}`).toBe(`${ORIGIN}/payment-success`);
    const sessionId = returnUrl.searchParams.get("session_id") ?? "";
    expect((await subscription(account.token)).meta.pending_update).toEqual({
      new_quantity: 6,
      new_plan_code: PLAN_VALUES.paid,
    });
    expect((await validate(sessionId)).isValid).toBe(false);

    stripe.completePortalFlow(portal?.id ?? "");
    expect(await validate(sessionId)).toMatchObject({ isValid: true, alreadyProcessed: false });
    const after = await get(API_PATHS.seatStatus, account.token);
    expect(after.body.data).toEqual({ total_seats: 6, allocated_seats: 0, available_seats: 6 });
    expect((await subscription(account.token)).meta.pending_update).toBeNull();
  });

  it("cancels at period end at Stripe and resumes, and opens the portal back to /payment-success", async () => {
    const account = await subscribed("stripe-cancel", 1);
    const cancelled = await post(API_PATHS.cancelSubscription, account.token, {
      orgId: account.orgId,
      immediate: true,
    });
    expect(cancelled.body).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.cancellationScheduled });
    const atStripe = stripe.subscriptions.get(account.stripeSubscription.id);
    expect(atStripe).toMatchObject({ cancel_at_period_end: true, status: "active" });
    const periodEnd = new Date((atStripe?.items.data[0]?.current_period_end ?? 0) * 1000).toISOString();
    expect((await subscription(account.token)).meta.cancellation_request).toEqual({
      stripe_cancel_at: periodEnd,
    });

    const resumed = await post(API_PATHS.resumeSubscription, account.token, { orgId: account.orgId });
    expect(resumed.body).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.resumed });
    expect(stripe.subscriptions.get(account.stripeSubscription.id)?.cancel_at_period_end).toBe(false);
    expect((await subscription(account.token)).meta.cancellation_request).toBeNull();

    const portal = await post(API_PATHS.customerPortal, account.token, { orgId: account.orgId });
    const session = stripe.portalSessions.find((candidate) => candidate.url === portal.body.url);
    expect(session).toMatchObject({
      customer: account.stripeSubscription.customer,
      return_url: `${ORIGIN}/payment-success?portal=1`,
      flow: null,
    });
  });

  it("reads the credit from the Stripe customer's balance, in cents", async () => {
    const account = await subscribed("stripe-credit", 1);
    stripe.setBalance(account.stripeSubscription.customer, -2500);
    expect(
      v.parse(creditResponseSchema, (await get(API_PATHS.subscriptionCredit, account.token)).body),
    ).toEqual({
      success: true,
      creditBalanceCents: 2500,
    });
    stripe.setBalance(account.stripeSubscription.customer, 700);
    expect((await get(API_PATHS.subscriptionCredit, account.token)).body.creditBalanceCents).toBe(0);
  });

  it("creates the Stripe customer of an organisation that never paid when it opens the portal", async () => {
    const account = await signedInAccount(backend, "stripe-portal-trial");
    const portal = await post(API_PATHS.customerPortal, account.token, { orgId: account.orgId });
    expect(portal.status).toBe(200);
    const session = stripe.portalSessions.find((candidate) => candidate.url === portal.body.url);
    const row = await backend.db
      .selectFrom("subscriptions")
      .select("stripe_customer_id")
      .where("org_id", "=", account.orgId)
      .executeTakeFirstOrThrow();
    expect(row.stripe_customer_id).toBe(session?.customer);
  });

  it("activates Pro from checkout.session.completed when the browser never comes back, once", async () => {
    const account = await signedInAccount(backend, "stripe-hook-checkout");
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity: 3,
      email: "buyer@example.com",
    });
    const session = [...stripe.checkoutSessions.values()].find(
      (candidate) => candidate.url === started.body.url,
    );
    const sessionId = session?.id ?? "";
    stripe.payCheckout(sessionId);
    const { line: _line, ...completed } = stripe.checkoutSessions.get(sessionId) ?? {};
    const first = await deliver(event("evt_checkout_1", "checkout.session.completed", completed));
    expect(first.body).toEqual({ received: true, duplicate: false });
    expect(await subscription(account.token)).toMatchObject({
      plan: { plan_code: PLAN_VALUES.paid },
      status: "active",
    });
    expect(
      (await deliver(event("evt_checkout_1", "checkout.session.completed", completed))).body.duplicate,
    ).toBe(true);
    expect(await validate(sessionId)).toMatchObject({ isValid: true, alreadyProcessed: true });
  });

  it("answers 502 with the page's wording when Stripe refuses, and keeps Stripe's message out of it", async () => {
    const account = await signedInAccount(backend, "stripe-refusal");
    await backend.db
      .updateTable("subscriptions")
      .set({ stripe_customer_id: "cus_gone" })
      .where("org_id", "=", account.orgId)
      .execute();
    const portal = await post(API_PATHS.customerPortal, account.token, { orgId: account.orgId });
    expect(portal.status).toBe(502);
    expect(portal.body).toEqual({ error: SUBSCRIPTION_MESSAGES.portalCreateError });
  });

  it("refuses a webhook with a missing or wrong signature and changes nothing", async () => {
    const account = await subscribed("stripe-hook-signature", 2);
    const payload = event("evt_forged", "customer.subscription.deleted", account.stripeSubscription);
    const forged = new Stripe("sk_test_other").webhooks.generateTestHeaderString({
      payload: JSON.stringify(payload),
      secret: "whsec_someone_else",
    });
    for (const signature of ["", "t=1,v1=00", forged]) {
      const response = await deliver(payload, signature);
      expect(response.status, signature).toBe(400);
      expect(response.body).toEqual({ error: "Invalid webhook signature" });
    }
    expect((await subscription(account.token)).status).toBe("active");
  });

  it("applies subscription and invoice events once each, whatever is replayed", async () => {
    const account = await subscribed("stripe-hook-events", 2);
    const changed = {
      ...account.stripeSubscription,
      status: "past_due",
      items: {
        ...account.stripeSubscription.items,
        data: account.stripeSubscription.items.data.map((item) => ({ ...item, quantity: 7 })),
      },
    };
    const updated = event("evt_updated_1", "customer.subscription.updated", changed);
    expect((await deliver(updated)).body).toEqual({ received: true, duplicate: false });
    expect(await subscription(account.token)).toMatchObject({ status: "past_due" });
    expect((await get(API_PATHS.seatStatus, account.token)).body.data.total_seats).toBe(7);

    const invoice = (id: string, type: string) =>
      event(id, type, {
        id: `in_${id}`,
        object: "invoice",
        customer: account.stripeSubscription.customer,
        status: type === "invoice.paid" ? "paid" : "open",
        parent: {
          type: "subscription_details",
          quote_details: null,
          subscription_details: { metadata: {}, subscription: account.stripeSubscription.id },
        },
        lines: {
          object: "list",
          data: [{ id: "il_1", object: "line_item", period: { start: 1, end: 1_900_000_000 } }],
          has_more: false,
          url: "/v1/invoices/in_1/lines",
        },
      });
    expect((await deliver(invoice("evt_paid_1", "invoice.paid"))).body.duplicate).toBe(false);
    const active = await subscription(account.token);
    expect(active.status).toBe("active");
    expect(active.end).toBe(new Date(1_900_000_000 * 1000).toISOString());

    // The past_due update again: already applied, so the subscription stays active.
    expect((await deliver(updated)).body).toEqual({ received: true, duplicate: true });
    expect((await subscription(account.token)).status).toBe("active");

    expect((await deliver(invoice("evt_failed_1", "invoice.payment_failed"))).status).toBe(200);
    expect((await subscription(account.token)).status).toBe("past_due");

    const deleted = event("evt_deleted_1", "customer.subscription.deleted", {
      ...changed,
      status: "canceled",
    });
    expect((await deliver(deleted)).status).toBe(200);
    expect(await subscription(account.token)).toMatchObject({ status: "canceled", isExpired: true });
    expect((await get(API_PATHS.seatStatus, account.token)).body.data.allocated_seats).toBe(0);
  });

  it("applies no subscription event older than the last one applied, and none to an ended subscription", async () => {
    const account = await subscribed("stripe-hook-order", 2);
    const seats = async () => (await get(API_PATHS.seatStatus, account.token)).body.data.total_seats;
    const withSeats = (quantity: number, status = "active") => ({
      ...account.stripeSubscription,
      status,
      items: {
        ...account.stripeSubscription.items,
        data: account.stripeSubscription.items.data.map((item) => ({ ...item, quantity })),
      },
    });
    const updated = "customer.subscription.updated";
    const now = Math.floor(Date.now() / 1000);

    expect((await deliver(event("evt_order_2", updated, withSeats(5), now - 60))).status).toBe(200);
    expect(await seats()).toBe(5);
    // Stripe sent this one first, but it arrives last (a retry): it describes the past.
    const late = await deliver(event("evt_order_1", updated, withSeats(9, "past_due"), now - 120));
    expect(late.body).toEqual({ received: true, duplicate: false });
    expect(await seats()).toBe(5);
    expect((await subscription(account.token)).status).toBe("active");

    const ended = withSeats(5, "canceled");
    expect((await deliver(event("evt_order_3", "customer.subscription.deleted", ended, now))).status).toBe(
      200,
    );
    // An update from before the end, and one from its very second, arriving after it.
    for (const [id, created] of [
      ["evt_order_before_end", now - 30],
      ["evt_order_same_second", now],
    ] as const) {
      expect((await deliver(event(id, updated, withSeats(8), created))).status).toBe(200);
      expect(await subscription(account.token), id).toMatchObject({ status: "canceled", isExpired: true });
      expect(await seats(), id).toBe(5);
    }
  });
});
