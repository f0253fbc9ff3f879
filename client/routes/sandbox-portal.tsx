import { href } from "react-router";
import { ButtonLink } from "../components/ui";
import { loadSandboxPortal } from "../features/billing/billing.server";
import { STATUS_LABELS, SANDBOX_BILLING_TEXT as T } from "../features/billing/billing-text";
import { formatDate } from "../features/billing/format-billing.ts";
import { Detail, SandboxCard } from "../features/billing/sandbox-card";
import { backendFor } from "../lib/backend.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/sandbox-portal";

// Under Subscriptions in the top bar; the page names itself.
export const handle: RouteHandle = { title: "Subscriptions" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(T.portalTitle, productNameOf(matches)) }];
}

/** A 404 unless billing is the sandbox's. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { subscription: await loadSandboxPortal(api) };
}

/**
 * The sandbox's stand-in for Stripe's billing portal (docs/product.md#where-we-differ): it shows the
 * subscription and goes back to /payment-success?portal=1, as Stripe's portal returns.
 */
export default function SandboxPortal({ loaderData }: Route.ComponentProps) {
  const { subscription } = loaderData;
  return (
    <SandboxCard
      id="sandbox-portal"
      title={T.portalTitle}
      explanation={T.portalExplanation}
      actions={
        <ButtonLink to={`${href("/payment-success")}?portal=1`} variant="primary">
          {T.returnToApp}
        </ButtonLink>
      }
    >
      {subscription ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <Detail term={T.plan}>{subscription.plan.name}</Detail>
          <Detail term={T.status}>{STATUS_LABELS[subscription.status]}</Detail>
          <Detail term={T.periodEnd}>{formatDate(subscription.end)}</Detail>
          {subscription.meta.cancellation_request ? (
            <Detail term={T.cancelAt}>
              {formatDate(subscription.meta.cancellation_request.stripe_cancel_at)}
            </Detail>
          ) : null}
        </dl>
      ) : (
        <p className="text-fg-muted text-sm">{T.noSubscription}</p>
      )}
    </SandboxCard>
  );
}
