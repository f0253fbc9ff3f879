/**
 * Sandbox billing, the local default without Stripe keys: checkout and seat changes lead to our
 * own /sandbox/checkout page, the portal to /sandbox/portal, both labelled as the sandbox. The
 * page completes or cancels the session through the sandbox routes (routes/sandbox-billing.ts);
 * nothing is charged. A paid sandbox session buys one month, counted on the billing clock.
 */
import { randomBytes } from "node:crypto";
import { addOneMonth, type Clock } from "./clock.ts";
import type { BillingProvider } from "./provider.ts";

/** The pages that stand in for Stripe's hosted checkout and customer portal (client routes). */
export const SANDBOX_CHECKOUT_PAGE = "/sandbox/checkout";
export const SANDBOX_PORTAL_PAGE = "/sandbox/portal";

const SESSION_PREFIX = "sandbox_cs_";
const SUBSCRIPTION_PREFIX = "sandbox_sub_";

export function createSandboxBilling(publicOrigin: string, clock: Clock): BillingProvider {
  const checkoutPage = () => {
    const id = `${SESSION_PREFIX}${randomBytes(12).toString("hex")}`;
    const url = new URL(SANDBOX_CHECKOUT_PAGE, publicOrigin);
    url.search = new URLSearchParams({ session_id: id }).toString();
    return { id, url: url.toString() };
  };
  return {
    kind: "sandbox",
    startCheckout: async () => checkoutPage(),
    startSeatUpdate: async () => checkoutPage(),
    async outcome(session) {
      if (session.status === "expired") return { state: "expired" };
      if (session.status !== "complete") return { state: "open" };
      return {
        state: "paid",
        paid: {
          // One sandbox subscription per organisation: a seat change keeps it.
          subscriptionId: `${SUBSCRIPTION_PREFIX}${session.org_id.replaceAll("-", "")}`,
          customerId: null,
          periodEnd: session.kind === "checkout" ? addOneMonth(clock()) : null,
        },
      };
    },
    cancelAtPeriodEnd: async (subscription) => ({ cancelAt: subscription.current_period_end }),
    resume: async () => ({ cancelAt: null }),
    portal: async () => ({ url: new URL(SANDBOX_PORTAL_PAGE, publicOrigin).toString(), customerId: null }),
    creditBalanceCents: async (subscription) => subscription.credit_balance_cents,
  };
}
