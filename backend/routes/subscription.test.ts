/**
 * Billing through the sandbox, on each database: the trial timeline on a controlled clock, checkout
 * and its one-time validation, seat rules, cancel and resume, the portal and credit.
 */

import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_VALUES, TRIAL_SEATS } from "../../shared/constants.ts";
import {
  creditResponseSchema,
  PAYMENT_MESSAGES,
  redirectResponseSchema,
  SUBSCRIPTION_MESSAGES,
  sandboxCheckoutResponseSchema,
  subscriptionResponseSchema,
  validateSessionResponseSchema,
} from "../../shared/contract/billing.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { SEAT_MESSAGES, seatStatusResponseSchema } from "../../shared/contract/contributors.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { bearerCalls, testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";
import { addDays, addOneMonth } from "../billing/clock.ts";

const ORIGIN = "http://127.0.0.1:3000";
/** Mid-morning, so that "days" are calendar days and not 24-hour spans from sign-up. */
const DAY_0 = new Date("2026-03-02T10:30:00Z");

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let now = DAY_0;
  beforeAll(async () => {
    backend = await backends.start({ PUBLIC_ORIGIN: ORIGIN }, { clock: () => now });
  });
  afterAll(() => backends.stop());

  const calls = bearerCalls(() => backend.app);
  const get = (path: string, token: string) => calls.get(token, path);
  const post = (path: string, token: string, body: object = {}) => calls.post(token, path, body);

  async function subscription(token: string) {
    const response = await get(API_PATHS.subscription, token);
    expect(response.status).toBe(200);
    const { subscription } = v.parse(subscriptionResponseSchema, response.body);
    if (!subscription) throw new Error("no subscription");
    return subscription;
  }
  async function seats(token: string) {
    return v.parse(seatStatusResponseSchema, (await get(API_PATHS.seatStatus, token)).body).data;
  }
  /** A new organisation, signed up at `DAY_0 + day`. */
  async function organisation(name: string, day = 0) {
    now = addDays(DAY_0, day);
    return signedInAccount(backend, name);
  }
  /** Gives `count` contributors of the organisation a seat, as the seat calls would. */
  async function holdSeats(orgId: string, count: number) {
    for (let index = 0; index < count; index++) {
      await backend.db
        .insertInto("contributors")
        .values({
          org_id: orgId,
          platform_type: "github",
          platform_id: `dev-${orgId.slice(0, 8)}-${index}`,
          name: `Dev ${index}`,
          seat_id: crypto.randomUUID(),
        })
        .execute();
    }
    await backend.db
      .updateTable("subscriptions")
      .set((eb) => ({ seats_allocated: eb("seats_allocated", "+", count) }))
      .where("org_id", "=", orgId)
      .execute();
  }
  /** Checkout in the sandbox: start, pay on the sandbox page, and the session id. */
  async function paidCheckout(account: { token: string; orgId: string }, quantity: number) {
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity,
      email: "billing@example.com",
    });
    expect(started.status).toBe(200);
    const url = new URL(v.parse(redirectResponseSchema, started.body).url);
    const sessionId = url.searchParams.get("session_id") ?? "";
    const completed = await post(API_PATHS.sandboxCheckoutComplete(sessionId), account.token);
    expect(completed.body).toEqual({ url: `/payment-success?session_id=${sessionId}` });
    return sessionId;
  }
  /** Validation as the /payment-success page asks it: signed in (`token`), or by anyone. */
  const validate = async (sessionId: string, token?: string) => {
    const call = request(backend.app).get(API_PATHS.validateSession(sessionId));
    const response = await (token ? call.set("Authorization", `Bearer ${token}`) : call);
    return { status: response.status, body: response.body };
  };

  it("runs a new organisation's trial from its sign-up to Free, day by day", async () => {
    const { token, orgId } = await organisation("trial-timeline");
    const day0 = await subscription(token);
    expect(day0).toMatchObject({
      plan: { plan_code: PLAN_VALUES.proTrial, price: 0, currency: "USD" },
      status: "trialing",
      daysRemaining: 14,
      trialDaysRemaining: 14,
      isTrialEndingSoon: false,
      hasTrialEnded: false,
      isExpired: false,
      org_id: orgId,
      meta: { trial: { status: "active", converted_to_active: false, isTrialing: true } },
    });
    expect(day0.end).toBe(addDays(DAY_0, 14).toISOString());
    expect(await seats(token)).toEqual({
      total_seats: TRIAL_SEATS,
      allocated_seats: 0,
      available_seats: TRIAL_SEATS,
    });
    await holdSeats(orgId, 2);

    now = addDays(DAY_0, 11);
    expect(await subscription(token)).toMatchObject({
      trialDaysRemaining: 3,
      isTrialEndingSoon: true,
      meta: { trial: { status: "ending_soon" } },
    });

    // The last day, late in the evening: still the trial, "expires today".
    now = new Date(addDays(DAY_0, 14).getTime() + 13 * 60 * 60 * 1000);
    expect(await subscription(token)).toMatchObject({
      plan: { plan_code: PLAN_VALUES.proTrial },
      status: "trialing",
      daysRemaining: 0,
      trialDaysRemaining: 0,
      isExpired: false,
      meta: { trial: { status: "ending_soon" } },
    });
    expect((await seats(token)).allocated_seats).toBe(2);

    now = addDays(DAY_0, 15);
    expect(await subscription(token)).toMatchObject({
      plan: { plan_code: PLAN_VALUES.free, price: 0 },
      status: "paused",
      end: null,
      daysRemaining: null,
      trialDaysRemaining: null,
      isTrialEndingSoon: false,
      hasTrialEnded: true,
      meta: { trial: { status: "ended", converted_to_active: false, isTrialing: false } },
    });
    expect(await seats(token)).toEqual({ total_seats: 0, allocated_seats: 0, available_seats: 0 });
    const held = await backend.db
      .selectFrom("contributors")
      .select("seat_id")
      .where("org_id", "=", orgId)
      .execute();
    expect(held.map((row) => row.seat_id)).toEqual([null, null]);
  });

  it("activates Pro exactly once however many validations race, and says so to the later ones", async () => {
    const account = await organisation("checkout-race", 3);
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity: 3,
      email: "billing@example.com",
    });
    const url = new URL(v.parse(redirectResponseSchema, started.body).url);
    expect(`${url.origin}${url.pathname}`).toBe(`${ORIGIN}/sandbox/checkout`);
    const sessionId = url.searchParams.get("session_id") ?? "";

    const page = await get(API_PATHS.sandboxCheckout(sessionId), account.token);
    expect(v.parse(sandboxCheckoutResponseSchema, page.body).data).toEqual({
      id: sessionId,
      kind: "checkout",
      planName: "Pro",
      quantity: 3,
      unitAmount: 1500,
      amount: 4500,
      currency: "USD",
      customerEmail: "billing@example.com",
      status: "open",
    });
    // Not paid yet: pending, and nothing applied.
    const early = await validate(sessionId);
    expect(v.parse(validateSessionResponseSchema, early.body)).toMatchObject({
      isValid: false,
      alreadyProcessed: false,
      message: PAYMENT_MESSAGES.pending,
    });
    expect((await subscription(account.token)).plan.plan_code).toBe(PLAN_VALUES.proTrial);

    await post(API_PATHS.sandboxCheckoutComplete(sessionId), account.token);
    const answers = await Promise.all(Array.from({ length: 6 }, () => validate(sessionId, account.token)));
    const bodies = answers.map((answer) => v.parse(validateSessionResponseSchema, answer.body));
    expect(bodies.every((body) => body.isValid)).toBe(true);
    expect(bodies.filter((body) => !body.alreadyProcessed)).toHaveLength(1);
    expect(bodies[0]?.session).toMatchObject({
      customerEmail: "billing@example.com",
      amount: 4500,
      currency: "USD",
    });

    const pro = await subscription(account.token);
    expect(pro).toMatchObject({
      plan: { plan_code: PLAN_VALUES.paid, name: "Pro", price: 1500 },
      status: "active",
      isExpired: false,
      trialDaysRemaining: null,
      meta: { trial: { status: "converted", converted_to_active: true, isTrialing: false } },
    });
    expect(pro.end).toBe(addOneMonth(now).toISOString());
    expect(pro.stripe_subscription_id).toMatch(/^sandbox_sub_/);
    expect((await seats(account.token)).total_seats).toBe(3);

    const later = v.parse(validateSessionResponseSchema, (await validate(sessionId)).body);
    expect(later).toMatchObject({
      isValid: true,
      alreadyProcessed: true,
      validationChecks: { sessionAlreadyUsed: true },
    });
    // The trial's end no longer applies to a paid organisation.
    now = addDays(now, 20);
    expect((await subscription(account.token)).plan.plan_code).toBe(PLAN_VALUES.paid);
  });

  it("keeps checkout and the sandbox pages to the caller's organisation", async () => {
    const owner = await organisation("sandbox-owner");
    const other = await organisation("sandbox-other");
    const foreign = await post(API_PATHS.checkoutSession, other.token, {
      orgId: owner.orgId,
      quantity: 1,
      email: "x@example.com",
    });
    expect(foreign.status).toBe(403);
    const sessionId = await paidCheckout(owner, 1);
    expect((await get(API_PATHS.sandboxCheckout(sessionId), other.token)).status).toBe(404);
    expect((await post(API_PATHS.sandboxCheckoutComplete(sessionId), other.token)).status).toBe(404);
    expect((await validate("sandbox_cs_unknown")).status).toBe(404);
  });

  it("answers a payment's e-mail, amount and date only to a signed-in member of its organisation", async () => {
    const owner = await organisation("payment-details-owner");
    const other = await organisation("payment-details-other");
    const sessionId = await paidCheckout(owner, 2);

    // Anyone with the id may still have it applied (the browser may come back signed out)...
    const anonymous = v.parse(validateSessionResponseSchema, (await validate(sessionId)).body);
    expect(anonymous).toMatchObject({ isValid: true, alreadyProcessed: false, session: null });
    expect(JSON.stringify(anonymous)).not.toContain("billing@example.com");
    // ...but learns nothing about the payment: neither does another organisation, nor a bad token.
    for (const token of [other.token, "not-a-session-token"]) {
      const answer = await validate(sessionId, token);
      expect(answer.status).toBe(200);
      expect(v.parse(validateSessionResponseSchema, answer.body)).toMatchObject({
        alreadyProcessed: true,
        session: null,
      });
    }
    const member = v.parse(validateSessionResponseSchema, (await validate(sessionId, owner.token)).body);
    expect(member).toMatchObject({
      isValid: true,
      alreadyProcessed: true,
      session: { customerEmail: "billing@example.com", amount: 3000, currency: "USD" },
    });
    expect(Date.parse(member.session?.createdAt ?? "")).not.toBeNaN();
  });

  it("cancels a sandbox checkout: nothing is applied", async () => {
    const account = await organisation("sandbox-cancel");
    const started = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity: 2,
      email: "billing@example.com",
    });
    const sessionId = new URL(started.body.url).searchParams.get("session_id") ?? "";
    expect((await post(API_PATHS.sandboxCheckoutCancel(sessionId), account.token)).body).toEqual({
      url: "/payment-cancel",
    });
    const answer = v.parse(validateSessionResponseSchema, (await validate(sessionId)).body);
    expect(answer).toMatchObject({ isValid: false, message: PAYMENT_MESSAGES.cancelled });
    expect((await post(API_PATHS.sandboxCheckoutComplete(sessionId), account.token)).status).toBe(409);
    expect((await subscription(account.token)).plan.plan_code).toBe(PLAN_VALUES.proTrial);
  });

  it("never lets seats go below those allocated, and applies a seat change once confirmed", async () => {
    const account = await organisation("seat-rules");
    await holdSeats(account.orgId, 2);
    const belowAtCheckout = await post(API_PATHS.checkoutSession, account.token, {
      orgId: account.orgId,
      quantity: 1,
      email: "billing@example.com",
    });
    expect(belowAtCheckout.status).toBe(400);
    expect(belowAtCheckout.body.error).toBe(SEAT_MESSAGES.belowAllocated);
    await validate(await paidCheckout(account, 3));
    const { stripe_subscription_id: subscriptionId } = await subscription(account.token);

    const update = (body: object) => post(API_PATHS.updateSubscription, account.token, body);
    const below = await update({ subscriptionId, quantity: 1, email: "billing@example.com" });
    expect(below.status).toBe(400);
    expect(below.body.error).toBe(SEAT_MESSAGES.belowAllocated);
    const unknown = await update({
      subscriptionId: "sub_someone_else",
      quantity: 4,
      email: "billing@example.com",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(SUBSCRIPTION_MESSAGES.invalidSubscriptionId);

    const grown = await update({ subscriptionId, quantity: 5, email: "billing@example.com" });
    expect(grown.status).toBe(200);
    const sessionId = new URL(grown.body.url).searchParams.get("session_id") ?? "";
    expect(
      v.parse(
        sandboxCheckoutResponseSchema,
        (await get(API_PATHS.sandboxCheckout(sessionId), account.token)).body,
      ).data,
    ).toMatchObject({ kind: "update", quantity: 5 });
    expect((await subscription(account.token)).meta.pending_update).toEqual({
      new_quantity: 5,
      new_plan_code: PLAN_VALUES.paid,
    });
    const periodEnd = (await subscription(account.token)).end;

    await post(API_PATHS.sandboxCheckoutComplete(sessionId), account.token);
    expect(v.parse(validateSessionResponseSchema, (await validate(sessionId)).body).isValid).toBe(true);
    const after = await subscription(account.token);
    expect(after.meta.pending_update).toBeNull();
    expect(after.end).toBe(periodEnd);
    expect(await seats(account.token)).toEqual({ total_seats: 5, allocated_seats: 2, available_seats: 3 });
  });

  it("cancels at period end even when asked for at once, resumes before that date, and not after", async () => {
    const account = await organisation("cancel-resume");
    const refused = await post(API_PATHS.cancelSubscription, account.token, { orgId: account.orgId });
    expect(refused.status).toBe(400);
    await validate(await paidCheckout(account, 2));
    const periodEnd = (await subscription(account.token)).end;

    const cancelled = await post(API_PATHS.cancelSubscription, account.token, {
      orgId: account.orgId,
      immediate: true,
    });
    expect(cancelled.body).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.cancellationScheduled });
    const scheduled = await subscription(account.token);
    expect(scheduled).toMatchObject({ status: "active", isExpired: false });
    expect(scheduled.meta.cancellation_request).toEqual({ stripe_cancel_at: periodEnd });

    const resumed = await post(API_PATHS.resumeSubscription, account.token, { orgId: account.orgId });
    expect(resumed.body).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.resumed });
    expect((await subscription(account.token)).meta.cancellation_request).toBeNull();
    expect((await post(API_PATHS.resumeSubscription, account.token, { orgId: account.orgId })).status).toBe(
      400,
    );

    await post(API_PATHS.cancelSubscription, account.token, { orgId: account.orgId });
    now = addDays(new Date(periodEnd ?? ""), 1);
    const ended = await subscription(account.token);
    expect(ended).toMatchObject({ status: "canceled", isExpired: true });
    expect(ended.meta.cancellation_request).toBeNull();
    const late = await post(API_PATHS.resumeSubscription, account.token, { orgId: account.orgId });
    expect(late.status).toBe(400);
    expect((await subscription(account.token)).status).toBe("canceled");
  });

  it("opens the sandbox portal, answers the subscription there, and reports credit in cents", async () => {
    const account = await organisation("portal");
    const portal = await post(API_PATHS.customerPortal, account.token, { orgId: account.orgId });
    expect(portal.body).toEqual({ url: `${ORIGIN}/sandbox/portal` });
    const page = v.parse(
      subscriptionResponseSchema,
      (await get(API_PATHS.sandboxPortal, account.token)).body,
    );
    expect(page.subscription?.org_id).toBe(account.orgId);
    await backend.db
      .updateTable("subscriptions")
      .set({ credit_balance_cents: 1250 })
      .where("org_id", "=", account.orgId)
      .execute();
    expect(
      v.parse(creditResponseSchema, (await get(API_PATHS.subscriptionCredit, account.token)).body),
    ).toEqual({
      success: true,
      creditBalanceCents: 1250,
    });
  });
});
