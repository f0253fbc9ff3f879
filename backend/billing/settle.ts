/**
 * Settling a payment session: ask the provider what it bought and, when paid, apply it once
 * (subscriptions.ts, applyPaidSession). validate-session does this when the browser comes back;
 * Stripe's checkout.session.completed webhook does it when the browser never does.
 */
import type { BillingDeps } from "./billing-deps.ts";
import type { PaymentSessionRow } from "./provider.ts";
import { applyPaidSession, currentSubscription } from "./subscriptions.ts";

/** `applied`: this call applied it; `already`: another one had. */
export type Settlement = "open" | "expired" | "applied" | "already";

export async function settleSession(deps: BillingDeps, session: PaymentSessionRow): Promise<Settlement> {
  const { db, provider, clock } = deps;
  if (session.processed_at) return "already";
  const subscription = await currentSubscription(db, session.org_id, clock());
  if (!subscription) return "expired";
  const outcome = await provider.outcome(session, subscription);
  if (outcome.state === "expired") {
    await db
      .updateTable("payment_sessions")
      .set({ status: "expired" })
      .where("id", "=", session.id)
      .where("status", "=", "open")
      .execute();
  }
  if (outcome.state !== "paid") return outcome.state;
  return (await applyPaidSession(db, session, outcome.paid, clock())) ? "applied" : "already";
}
