import { CircleX } from "lucide-react";
import { href } from "react-router";
import { PAYMENT_MESSAGES } from "../../shared/contract/billing.ts";
import { ButtonLink, Card } from "../components/ui";
import { PAYMENT_TEXT as T } from "../features/billing/billing-text";
import { requireSession } from "../lib/guards.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/payment-cancel";

// Under Subscriptions in the top bar; the page names its outcome.
export const handle: RouteHandle = { title: "Subscriptions" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(T.cancelTitle, productNameOf(matches)) }];
}

/** The reason the checkout or the payment validation gave, if any (`error`). */
export function loader({ context, request }: Route.LoaderArgs) {
  requireSession(context, request);
  return { error: new URL(request.url).searchParams.get("error")?.trim() || null };
}

/** docs/product.md#payment-cancel */
export default function PaymentCancel({ loaderData }: Route.ComponentProps) {
  return (
    <Card as="section" aria-labelledby="payment-cancel" className="mx-auto max-w-lg space-y-5 px-6 py-8">
      <div className="flex flex-col items-center gap-2 text-center">
        <CircleX aria-hidden="true" className="size-8 text-danger-text" />
        <h2 id="payment-cancel" className="font-semibold text-fg text-xl tracking-tight">
          {T.cancelTitle}
        </h2>
        {/* The reason comes from the address: it may be one long word, which breaks rather than overflows. */}
        <p role="alert" className="max-w-full text-fg text-sm wrap-anywhere">
          {loaderData.error ?? PAYMENT_MESSAGES.cancelled}
        </p>
        <p className="font-medium text-fg text-sm">{T.noCharge}</p>
      </div>
      <div className="space-y-2 rounded-md border border-border px-4 py-3">
        <h3 id="payment-cancel-causes" className="font-medium text-fg text-sm">
          {T.causesTitle}
        </h3>
        <ul
          aria-labelledby="payment-cancel-causes"
          className="list-disc space-y-1 pl-5 text-fg-muted text-sm"
        >
          {T.causes.map((cause) => (
            <li key={cause}>{cause}</li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        <ButtonLink to={href("/subscriptions")} variant="primary">
          {T.tryAgain}
        </ButtonLink>
        <ButtonLink to={href("/home")}>{T.goToDashboard}</ButtonLink>
      </div>
    </Card>
  );
}
