/**
 * Payment sessions after the browser left for checkout: GET validate-session/{id}, public, which
 * applies a paid session exactly once and tells its details to members of its organisation only
 * (docs/product.md#payment-validation), and the sandbox's
 * stand-in for Stripe's hosted pages (checkout and portal), which 404 when Stripe is configured.
 */

import type { Router } from "express";
import type * as v from "valibot";
import type {
  PaymentSession,
  SandboxCheckout,
  SubscriptionResponse,
  sandboxCheckoutResponseSchema,
  ValidateSessionResponse,
} from "../../shared/contract/billing.ts";
import { PAYMENT_MESSAGES } from "../../shared/contract/billing.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { sessionOf, sessionOfRequest } from "../auth/require-session.ts";
import type { SessionTokens } from "../auth/session-tokens.ts";
import { atProvider, type BillingDeps, idPattern } from "../billing/billing-deps.ts";
import type { PaymentSessionRow } from "../billing/provider.ts";
import { type Settlement, settleSession } from "../billing/settle.ts";
import { planOf, subscriptionView } from "../billing/subscription-view.ts";
import { currentSubscription } from "../billing/subscriptions.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";

const sessionNotFound = () => new HttpError(404, { error: "Payment session not found" });

function paymentSession(row: PaymentSessionRow): PaymentSession {
  return {
    customerEmail: row.customer_email,
    amount: row.unit_amount * row.quantity,
    currency: row.currency,
    createdAt: row.created_at.toISOString(),
  };
}

function validation(isValid: boolean, alreadyProcessed: boolean, message: string) {
  return { isValid, alreadyProcessed, message, validationChecks: { sessionAlreadyUsed: alreadyProcessed } };
}

/** The answer for each way settling a session can end, without the payment's details. */
const VALIDATIONS: Record<Settlement, Omit<ValidateSessionResponse, "session">> = {
  open: validation(false, false, PAYMENT_MESSAGES.pending),
  expired: validation(false, false, PAYMENT_MESSAGES.cancelled),
  applied: validation(true, false, "Payment verified"),
  already: validation(true, true, "Payment already processed"),
};

/**
 * Public: the gateway lets it through without a session (PUBLIC_API_PATTERN), since the browser
 * may come back from checkout signed out, and anyone holding the session id may have it applied.
 * Who paid and how much are answered only to a signed-in member of the checkout's organisation
 * (the /payment-success page shows them); anyone else gets `session: null`.
 */
export function validateSessionRouter(deps: BillingDeps, tokens: SessionTokens): Router {
  const { db } = deps;
  const router = strictRouter();

  router.get(idPattern(API_PATHS.validateSession), async (req, res) => {
    const row = await db
      .selectFrom("payment_sessions")
      .selectAll()
      .where("id", "=", String(req.params.id))
      .executeTakeFirst();
    if (!row) throw new HttpError(404, { error: PAYMENT_MESSAGES.unableToVerify });
    const settled = await atProvider(res, () => settleSession(deps, row), PAYMENT_MESSAGES.unableToVerify);
    const caller = await sessionOfRequest(db, tokens, req);
    const session = caller?.org.id === row.org_id ? paymentSession(row) : null;
    res.json({ ...VALIDATIONS[settled], session } satisfies ValidateSessionResponse);
  });

  return router;
}

/**
 * The sandbox's checkout and portal pages read and settle sessions here. app.ts mounts it only for
 * sandbox billing, so with Stripe these paths are 404.
 */
export function sandboxBillingRouter(deps: BillingDeps): Router {
  const { db, clock, prices } = deps;
  const router = strictRouter();

  /** An open or settled sandbox session of the caller's organisation, else 404. */
  async function ownSession(orgId: string, id: unknown): Promise<PaymentSessionRow> {
    const row = await db
      .selectFrom("payment_sessions")
      .selectAll()
      .where("id", "=", String(id))
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    if (!row) throw sessionNotFound();
    return row;
  }

  router.get(idPattern(API_PATHS.sandboxCheckout), async (req, res) => {
    const row = await ownSession(sessionOf(res).org.id, req.params.id);
    const data: SandboxCheckout = {
      id: row.id,
      kind: row.kind,
      planName: planOf(row.plan_code, prices).name,
      quantity: row.quantity,
      unitAmount: row.unit_amount,
      amount: row.unit_amount * row.quantity,
      currency: row.currency,
      customerEmail: row.customer_email,
      status: row.status,
    };
    res.json({ success: true, data } satisfies v.InferOutput<typeof sandboxCheckoutResponseSchema>);
  });

  router.post(idPattern(API_PATHS.sandboxCheckoutComplete), async (req, res) => {
    const row = await ownSession(sessionOf(res).org.id, req.params.id);
    if (row.status === "expired")
      throw new HttpError(409, { error: "This payment session is no longer open" });
    // Marked paid only: validate-session applies it, as it would a payment at Stripe.
    await db
      .updateTable("payment_sessions")
      .set({ status: "complete" })
      .where("id", "=", row.id)
      .where("status", "=", "open")
      .execute();
    res.json({ url: `/payment-success?${new URLSearchParams({ session_id: row.id })}` });
  });

  router.post(idPattern(API_PATHS.sandboxCheckoutCancel), async (req, res) => {
    const row = await ownSession(sessionOf(res).org.id, req.params.id);
    if (row.status === "complete")
      throw new HttpError(409, { error: "This payment session is already paid" });
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("payment_sessions")
        .set({ status: "expired" })
        .where("id", "=", row.id)
        .where("status", "=", "open")
        .execute();
      // A seat change given up is no longer pending.
      if (row.kind === "update") {
        await trx
          .updateTable("subscriptions")
          .set({ pending_quantity: null, pending_plan_code: null, updated_at: clock() })
          .where("org_id", "=", row.org_id)
          .where("pending_quantity", "=", row.quantity)
          .execute();
      }
    });
    res.json({ url: "/payment-cancel" });
  });

  router.get(API_PATHS.sandboxPortal, async (_req, res) => {
    const row = await currentSubscription(db, sessionOf(res).org.id, clock());
    res.json({
      success: true,
      subscription: row ? subscriptionView(row, clock(), prices) : null,
    } satisfies SubscriptionResponse);
  });

  return router;
}
