/**
 * /subscriptions once its data is in (docs/product.md#subscriptions): the header buttons, the
 * banners, the plan card and the billing-period card, and the dialogs they open.
 */
import { CalendarClock, Receipt, RotateCcw, Sparkles, Users, Wallet, XCircle } from "lucide-react";
import { type ReactNode, useState } from "react";
import { PRO_PLAN_MIN_SEATS } from "../../../shared/constants.ts";
import type { Subscription } from "../../../shared/contract/billing.ts";
import type { SeatStatus } from "../../../shared/contract/contributors.ts";
import { Alert, Badge, Button, Card } from "../../components/ui";
import { cn } from "../../lib/cn";
import { useLazyPart } from "../../lib/lazy-part";
import { useSeatCounts } from "../contributors/seat-counts";
import type { Billing } from "./billing.server";
import { SUBSCRIPTIONS_TEXT as T } from "./billing-text";
import { formatDate, formatMoney } from "./format-billing.ts";
import { billingApi } from "./lazy-billing";
import { subscriptionDialogs } from "./subscription-parts";
import {
  bannersOf,
  headerButtons,
  isFree,
  isPaidPro,
  periodEndOf,
  statusOf,
  URGENCY_TONES,
} from "./subscription-view";
import { useBillingActions } from "./use-billing-actions";

type Opened = { dialog: "upgrade" | "update" | "cancel"; returnFocusTo: HTMLElement | null };

/** Starts fetching what a click on a billing button needs, when it is pointed at or focused. */
const preload = {
  onPointerEnter: () => {
    billingApi.preload();
    subscriptionDialogs.preload();
  },
  onFocus: () => {
    billingApi.preload();
    subscriptionDialogs.preload();
  },
};

export function SubscriptionOverview({
  billing,
  user,
}: {
  billing: Billing & { subscription: Subscription };
  user: { orgId: string; email: string };
}) {
  const { subscription, creditBalanceCents } = billing;
  // As loaded, or as a seat toggled in the contributors table left them.
  const [seats] = useSeatCounts(billing.seats);
  const actions = useBillingActions(user, subscription);
  const [opened, setOpened] = useState<Opened | null>(null);
  const dialogs = useLazyPart(subscriptionDialogs, opened !== null);
  const buttons = headerButtons(subscription);
  const open = (dialog: Opened["dialog"]) => (event: { currentTarget: HTMLElement }) =>
    setOpened({ dialog, returnFocusTo: event.currentTarget });
  const close = () => setOpened(null);

  const portalButton = (
    <Button
      variant="secondary"
      icon={<Wallet aria-hidden="true" className="size-4" />}
      loading={actions.busy === "portal"}
      disabled={actions.busy !== null}
      onClick={() => void actions.openPortal()}
      {...preload}
    >
      {T.addPaymentMethod}
    </Button>
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap justify-end gap-2">
        {buttons.addPaymentMethod ? portalButton : null}
        {buttons.upgrade ? (
          <Button
            icon={<Sparkles aria-hidden="true" className="size-4" />}
            disabled={actions.busy !== null}
            onClick={open("upgrade")}
            {...preload}
          >
            {T.upgrade}
          </Button>
        ) : null}
        {buttons.updateSeats ? (
          <Button
            icon={<Users aria-hidden="true" className="size-4" />}
            disabled={actions.busy !== null}
            onClick={open("update")}
            {...preload}
          >
            {T.updateSeats}
          </Button>
        ) : null}
      </div>

      <Banners subscription={subscription} creditBalanceCents={creditBalanceCents} />

      <div className="grid gap-4 md:grid-cols-2">
        <PlanCard subscription={subscription} seats={seats} />
        {isFree(subscription) ? null : (
          <PeriodCard subscription={subscription}>
            {isPaidPro(subscription) ? (
              <>
                {subscription.meta.cancellation_request ? (
                  <Button
                    variant="secondary"
                    icon={<RotateCcw aria-hidden="true" className="size-4" />}
                    loading={actions.busy === "resume"}
                    disabled={actions.busy !== null}
                    onClick={() => void actions.resume()}
                    {...preload}
                  >
                    {T.resume}
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    icon={<XCircle aria-hidden="true" className="size-4" />}
                    disabled={actions.busy !== null}
                    onClick={open("cancel")}
                    {...preload}
                  >
                    {T.cancel}
                  </Button>
                )}
                {portalButton}
              </>
            ) : null}
          </PeriodCard>
        )}
      </div>

      {opened && dialogs ? (
        opened.dialog === "cancel" ? (
          <dialogs.CancelDialog
            end={subscription.end}
            busy={actions.busy === "cancel"}
            onConfirm={async () => {
              await actions.cancel();
              close();
            }}
            onClose={close}
            returnFocusTo={opened.returnFocusTo}
          />
        ) : (
          <dialogs.SeatsDialog
            mode={opened.dialog}
            initial={
              opened.dialog === "update"
                ? seats.total_seats
                : Math.max(PRO_PLAN_MIN_SEATS, seats.allocated_seats)
            }
            allocated={seats.allocated_seats}
            unitPrice={
              opened.dialog === "update"
                ? { amount: subscription.plan.price, currency: subscription.plan.currency }
                : undefined
            }
            busy={actions.busy === "seats"}
            onSubmit={opened.dialog === "update" ? actions.updateSeats : actions.checkout}
            onClose={close}
            returnFocusTo={opened.returnFocusTo}
          />
        )
      ) : null}
    </div>
  );
}

function Banners({
  subscription,
  creditBalanceCents,
}: {
  subscription: Subscription;
  creditBalanceCents: number;
}) {
  const banners = bannersOf(subscription, creditBalanceCents);
  if (banners.length === 0) return null;
  return (
    <div className="space-y-3">
      {banners.map((banner) => (
        <Alert key={banner.id} tone={banner.tone} title={banner.title}>
          {banner.text}
        </Alert>
      ))}
    </div>
  );
}

function CardTitle({ id, icon, children }: { id: string; icon: ReactNode; children: ReactNode }) {
  return (
    <h3 id={id} className="flex items-center gap-2 font-semibold text-fg text-sm [&>svg]:size-4">
      {icon}
      {children}
    </h3>
  );
}

function PlanCard({ subscription, seats }: { subscription: Subscription; seats: SeatStatus }) {
  const { plan } = subscription;
  const status = statusOf(subscription);
  return (
    <Card as="section" aria-labelledby="current-plan" className="space-y-4 p-5">
      <CardTitle id="current-plan" icon={<Receipt aria-hidden="true" />}>
        {T.currentPlan}
      </CardTitle>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-2xl text-fg tracking-tight">{plan.name}</p>
        <p className="text-fg text-sm">
          <span className="font-semibold text-lg">{formatMoney(plan.price, plan.currency)}</span>
          <span className="text-fg-muted">{T.perSeatMonth}</span>
        </p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
        {plan.price > 0 ? (
          <>
            <dt className="text-fg-muted">{T.total}</dt>
            <dd className="text-fg">
              {formatMoney(plan.price * seats.total_seats, plan.currency)}
              {T.perMonth}
            </dd>
          </>
        ) : null}
        <dt className="text-fg-muted">{T.status}</dt>
        <dd>
          <Badge tone={status.tone}>{status.label}</Badge>
        </dd>
      </dl>
      <p className="flex items-center gap-2 text-fg text-sm">
        <Users aria-hidden="true" className="size-4 text-fg-muted" />
        {T.seatsAllocated(seats.allocated_seats, seats.total_seats)}
      </p>
    </Card>
  );
}

const URGENCY_TEXT = {
  danger: "text-danger-text",
  warning: "text-warning-text",
  success: "text-success-text",
} as const;

function PeriodCard({ subscription, children }: { subscription: Subscription; children: ReactNode }) {
  const { label, urgency } = periodEndOf(subscription);
  return (
    <Card as="section" aria-labelledby="billing-period" className="flex flex-col gap-4 p-5">
      <CardTitle id="billing-period" icon={<CalendarClock aria-hidden="true" />}>
        {T.billingPeriod}
      </CardTitle>
      <div className="flex flex-wrap items-center gap-2">
        <p
          className={cn(
            "font-semibold text-2xl tracking-tight",
            urgency && URGENCY_TEXT[URGENCY_TONES[urgency]],
          )}
        >
          {T.daysRemaining(subscription.daysRemaining)}
        </p>
        {urgency ? <Badge tone={URGENCY_TONES[urgency]}>{T.urgency[urgency]}</Badge> : null}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
        <dt className="text-fg-muted">{label}</dt>
        <dd className="text-fg">{formatDate(subscription.end)}</dd>
      </dl>
      {children ? <div className="mt-auto flex flex-wrap gap-2">{children}</div> : null}
    </Card>
  );
}
