/**
 * A Stripe event, a checkout's validation and the sandbox's checkout are applied once, whichever of
 * two backends on one Postgres database takes them, even when both take them at the same moment
 * (each backend has its own pool, as replicas do; docs/decisions/042-scale-out.md). GitHub
 * deliveries across processes: scale-storm.test.ts.
 */

import Stripe from "stripe";
import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { redirectResponseSchema, validateSessionResponseSchema } from "../../shared/contract/billing.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../support/databases.ts";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe.ts";
import { TEST_BACKEND_ENV } from "../support/test-backend.ts";

/** The payment check of `sessionId`, asked of every backend at the same moment. */
const validatedOnEach = (backends: Backend[], sessionId: string) =>
  Promise.all(
    backends.map(async (backend) =>
      v.parse(
        validateSessionResponseSchema,
        (await request(backend.app).get(API_PATHS.validateSession(sessionId))).body,
      ),
    ),
  );

const WEBHOOK_SECRET = "whsec_test_secret_for_scale_out";
const signer = new Stripe("sk_test_signer");

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))("billing on two backends at once", () => {
  let database: FreshDatabase;
  let stripe: FakeStripe;
  let both: [Backend, Backend];

  beforeAll(async () => {
    stripe = await startFakeStripe();
    database = await freshDatabase("postgres");
    const env = {
      ...TEST_BACKEND_ENV,
      ...database.env,
      REVIEW_WORKERS: "0",
      PUBLIC_ORIGIN: "https://argus.example",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PRICE_ID: stripe.priceId,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    };
    const [a, b] = await Promise.all([createBackend(loadConfig(env)), createBackend(loadConfig(env))]);
    both = [a, b];
  }, 60_000);
  afterAll(async () => {
    for (const backend of both ?? []) await backend.close();
    await database?.drop();
    await stripe?.close();
  });

  /** An organisation that paid at Stripe; its checkout session not yet applied anywhere. */
  async function paidCheckout(name: string) {
    const [a] = both;
    const account = await signedInAccount(a, name);
    const started = await request(a.app)
      .post(API_PATHS.checkoutSession)
      .set("Authorization", `Bearer ${account.token}`)
      .send({ orgId: account.orgId, quantity: 3, email: `${name}@example.com` });
    const { url } = v.parse(redirectResponseSchema, started.body);
    const session = [...stripe.checkoutSessions.values()].find((candidate) => candidate.url === url);
    if (!session) throw new Error("no checkout session");
    const stripeSubscription = stripe.payCheckout(session.id);
    return { account, sessionId: session.id, stripeSubscription };
  }

  const stripeEvent = (id: string, type: string, object: object) => ({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });

  const deliver = (backend: Backend, event: object) => {
    const payload = JSON.stringify(event);
    return request(backend.app)
      .post(API_PATHS.stripeWebhook)
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))
      .send(payload);
  };

  it("applies one Stripe event delivered to both backends at once exactly once", async () => {
    const { account, sessionId } = await paidCheckout("scale-stripe-event");
    const { line: _line, ...completed } = stripe.checkoutSessions.get(sessionId) ?? {};
    const event = stripeEvent("evt_scale_checkout", "checkout.session.completed", completed);
    const answers = await Promise.all(both.map((backend) => deliver(backend, event)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.body.duplicate).sort()).toEqual([false, true]);
    const subscription = await both[1].db
      .selectFrom("subscriptions")
      .select(["status", "seats_total"])
      .where("org_id", "=", account.orgId)
      .executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({ status: "active", seats_total: 3 });
  });

  it("records one subscription event delivered to both backends at once once, and applies it once", async () => {
    const { account, sessionId, stripeSubscription } = await paidCheckout("scale-stripe-update");
    await request(both[0].app).get(API_PATHS.validateSession(sessionId));
    const changed = {
      ...stripeSubscription,
      status: "past_due",
      items: {
        ...stripeSubscription.items,
        data: stripeSubscription.items.data.map((item) => ({ ...item, quantity: 7 })),
      },
    };
    const event = stripeEvent("evt_scale_updated", "customer.subscription.updated", changed);
    const answers = await Promise.all(both.map((backend) => deliver(backend, event)));
    expect(answers.map((answer) => answer.body.duplicate).sort()).toEqual([false, true]);
    const recorded = await both[0].db
      .selectFrom("billing_events")
      .select("id")
      .where("id", "=", "evt_scale_updated")
      .execute();
    expect(recorded).toHaveLength(1);
    const subscription = await both[1].db
      .selectFrom("subscriptions")
      .select(["status", "seats_total"])
      .where("org_id", "=", account.orgId)
      .executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({ status: "past_due", seats_total: 7 });
  });

  it("applies one checkout validated on both backends at once exactly once", async () => {
    const { sessionId } = await paidCheckout("scale-checkout-validation");
    const answers = await validatedOnEach(both, sessionId);
    expect(answers.every((answer) => answer.isValid)).toBe(true);
    expect(answers.map((answer) => answer.alreadyProcessed).sort()).toEqual([false, true]);
  });
});

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))(
  "the sandbox's checkout on two backends at once",
  () => {
    let database: FreshDatabase;
    let both: [Backend, Backend];

    beforeAll(async () => {
      database = await freshDatabase("postgres");
      const env = { ...TEST_BACKEND_ENV, ...database.env, REVIEW_WORKERS: "0", BILLING_SANDBOX: "true" };
      const [a, b] = await Promise.all([createBackend(loadConfig(env)), createBackend(loadConfig(env))]);
      both = [a, b];
    }, 60_000);
    afterAll(async () => {
      for (const backend of both ?? []) await backend.close();
      await database?.drop();
    });

    it("is paid and applied once when both backends take its payment and its validation at once", async () => {
      const [a] = both;
      const account = await signedInAccount(a, "scale-sandbox-checkout");
      const started = await request(a.app)
        .post(API_PATHS.checkoutSession)
        .set("Authorization", `Bearer ${account.token}`)
        .send({ orgId: account.orgId, quantity: 4, email: "billing@example.com" });
      const sessionId =
        new URL(v.parse(redirectResponseSchema, started.body).url).searchParams.get("session_id") ?? "";
      const paid = await Promise.all(
        both.map((backend) =>
          request(backend.app)
            .post(API_PATHS.sandboxCheckoutComplete(sessionId))
            .set("Authorization", `Bearer ${account.token}`),
        ),
      );
      expect(paid.map((answer) => answer.status)).toEqual([200, 200]);
      const answers = await validatedOnEach(both, sessionId);
      expect(answers.every((answer) => answer.isValid)).toBe(true);
      expect(answers.map((answer) => answer.alreadyProcessed).sort()).toEqual([false, true]);
      const subscription = await both[1].db
        .selectFrom("subscriptions")
        .select(["status", "seats_total"])
        .where("org_id", "=", account.orgId)
        .executeTakeFirstOrThrow();
      expect(subscription).toMatchObject({ status: "active", seats_total: 4 });
    });
  },
);
