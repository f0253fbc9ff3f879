import { CircleCheck, Clock, RefreshCw, TriangleAlert } from "lucide-react";
import { href } from "react-router";
import { PAYMENT_MESSAGES } from "../../shared/contract/billing.ts";
import { Button, ButtonLink, Card, EmptyState, Spinner } from "../components/ui";
import { PAYMENT_TEXT as T } from "../features/billing/billing-text";
import { formatDate, formatMoney } from "../features/billing/format-billing.ts";
import { type PaymentReturn, usePaymentValidation } from "../features/billing/use-payment-validation";
import { requireSession } from "../lib/guards.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/payment-success";

// Under Subscriptions in the top bar; the page names its outcome.
export const handle: RouteHandle = { title: "Subscriptions" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(T.title, productNameOf(matches)) }];
}

/** Where a checkout (`session_id`) or the billing portal (`portal=1`) sends the browser back. */
export function loader({ context, request }: Route.LoaderArgs): PaymentReturn {
  requireSession(context, request);
  const query = new URL(request.url).searchParams;
  if (query.get("portal") === "1") return { kind: "portal" };
  const sessionId = query.get("session_id");
  return sessionId ? { kind: "session", sessionId } : { kind: "missing" };
}

/** docs/product.md#payment-success */
export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { validation, retry } = usePaymentValidation(loaderData);

  if (validation.state === "verifying") {
    return (
      <Card className="mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-12 text-center">
        <Spinner size="lg" className="text-accent" />
        <h2 className="font-semibold text-[15px] text-fg" role="status">
          {T.verifying}
        </h2>
        <p className="text-fg-muted text-sm">{T.verifyingHint}</p>
      </Card>
    );
  }

  if (validation.state === "error") {
    // Wide enough for its three buttons on one line.
    return (
      <div role="alert" className="mx-auto max-w-xl">
        <EmptyState
          tone="danger"
          icon={<TriangleAlert />}
          titleAs="h2"
          title={validation.message}
          description={T.failedHint}
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <ButtonLink to={href("/subscriptions")}>{T.backToSubscriptions}</ButtonLink>
              <Button
                variant="secondary"
                icon={<RefreshCw aria-hidden="true" className="size-4" />}
                onClick={retry}
              >
                {T.tryAgain}
              </Button>
              <ButtonLink to={href("/home")}>{T.goToDashboard}</ButtonLink>
            </div>
          }
        />
      </div>
    );
  }

  const confirmedActions = (
    <div className="flex flex-wrap justify-center gap-2">
      <ButtonLink to={href("/subscriptions")} variant="primary">
        {T.viewSubscriptions}
      </ButtonLink>
      <ButtonLink to={href("/home")}>{T.goToDashboard}</ButtonLink>
    </div>
  );

  if (loaderData.kind === "portal") {
    return (
      <div className="mx-auto max-w-lg">
        <EmptyState
          icon={<CircleCheck className="text-success-text" />}
          titleAs="h2"
          title={T.portalTitle}
          description={T.portalHint}
          action={confirmedActions}
        />
      </div>
    );
  }

  const { session } = validation;
  if (!session) {
    return (
      <div className="mx-auto max-w-lg">
        <EmptyState
          icon={<Clock />}
          titleAs="h2"
          title={PAYMENT_MESSAGES.pending}
          description={T.pendingHint}
          action={confirmedActions}
        />
      </div>
    );
  }

  return (
    <Card as="section" aria-labelledby="payment-success" className="mx-auto max-w-lg space-y-5 px-6 py-8">
      <div className="flex flex-col items-center gap-2 text-center">
        <CircleCheck aria-hidden="true" className="size-8 text-success-text" />
        <h2 id="payment-success" className="font-semibold text-fg text-xl tracking-tight">
          {T.successTitle}
        </h2>
        <p className="text-fg-muted text-sm">{T.successHint}</p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-md border border-border px-4 py-3 text-sm">
        <dt className="text-fg-muted">{T.email}</dt>
        <dd className="break-all text-fg">{session.customerEmail}</dd>
        <dt className="text-fg-muted">{T.amount}</dt>
        <dd className="text-fg">{formatMoney(session.amount, session.currency)}</dd>
        <dt className="text-fg-muted">{T.date}</dt>
        <dd className="text-fg">{formatDate(session.createdAt)}</dd>
        <dt className="text-fg-muted">{T.status}</dt>
        <dd className="font-medium text-success-text">{T.completed}</dd>
      </dl>
      {confirmedActions}
    </Card>
  );
}
