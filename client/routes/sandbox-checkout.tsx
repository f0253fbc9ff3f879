import { useRef, useState } from "react";
import { href } from "react-router";
import type { SandboxCheckout as Checkout } from "../../shared/contract/billing.ts";
import { SUBSCRIPTION_MESSAGES } from "../../shared/contract/billing.ts";
import { Alert, Button, ButtonLink, useToast } from "../components/ui";
import { loadSandboxCheckout } from "../features/billing/billing.server";
import { SANDBOX_BILLING_TEXT as T } from "../features/billing/billing-text";
import { formatMoney } from "../features/billing/format-billing.ts";
import { billingApi } from "../features/billing/lazy-billing";
import { Detail, SandboxCard } from "../features/billing/sandbox-card";
import { backendFor } from "../lib/backend.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { useFollowUrl } from "../lib/use-follow-url";
import type { Route } from "./+types/sandbox-checkout";

// Under Subscriptions in the top bar; the page names itself.
export const handle: RouteHandle = { title: "Subscriptions" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(T.checkoutTitle, productNameOf(matches)) }];
}

/** A 404 unless billing is the sandbox's and the query names one of its payment sessions. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  const sessionId = new URL(request.url).searchParams.get("session_id");
  return { checkout: await loadSandboxCheckout(api, sessionId) };
}

/**
 * The sandbox's stand-in for Stripe's hosted checkout (docs/product.md#where-we-differ): Pay and
 * Cancel go wherever the backend answers, as Stripe sends the browser back.
 */
export default function SandboxCheckout({ loaderData }: Route.ComponentProps) {
  const { checkout } = loaderData;
  const { toast } = useToast();
  const follow = useFollowUrl();
  const [busy, setBusy] = useState<"pay" | "cancel" | null>(null);
  const running = useRef(false);
  const open = checkout.status === "open";
  const amount = formatMoney(checkout.amount, checkout.currency);

  async function finish(pay: boolean) {
    if (running.current) return;
    running.current = true;
    setBusy(pay ? "pay" : "cancel");
    const outcome = await billingApi
      .load()
      .then((api) => api.finishSandboxCheckout(checkout.id, pay))
      .catch(() => ({ ok: false as const, message: SUBSCRIPTION_MESSAGES.requestFailed }));
    running.current = false;
    setBusy(null);
    if (outcome.ok) follow(outcome.value);
    else toast({ tone: "danger", title: outcome.message });
  }

  return (
    <SandboxCard
      id="sandbox-checkout"
      title={T.checkoutTitle}
      explanation={T.checkoutExplanation}
      actions={
        open ? (
          <>
            <Button
              variant="secondary"
              loading={busy === "cancel"}
              disabled={busy !== null}
              onClick={() => finish(false)}
            >
              {T.cancel}
            </Button>
            <Button
              loading={busy === "pay"}
              disabled={busy !== null}
              onClick={() => finish(true)}
              onPointerEnter={billingApi.preload}
              onFocus={billingApi.preload}
            >
              {T.pay(amount)}
            </Button>
          </>
        ) : (
          <ButtonLink to={href("/subscriptions")}>{T.backToSubscriptions}</ButtonLink>
        )
      }
    >
      {open ? null : <Alert tone="warning">{T.closed(checkout.status)}</Alert>}
      <CheckoutDetails checkout={checkout} amount={amount} />
    </SandboxCard>
  );
}

function CheckoutDetails({ checkout, amount }: { checkout: Checkout; amount: string }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      <Detail term={T.plan}>
        {checkout.planName} · {T.kind[checkout.kind]}
      </Detail>
      <Detail term={T.seats}>{checkout.quantity}</Detail>
      <Detail term={T.unitPrice}>{formatMoney(checkout.unitAmount, checkout.currency)}</Detail>
      <Detail term={T.amount}>
        <span className="font-semibold">{amount}</span>
      </Detail>
      <Detail term={T.email}>{checkout.customerEmail}</Detail>
    </dl>
  );
}
