/**
 * The /subscriptions dialogs (docs/product.md#subscriptions): the seat count for Upgrade to Pro or
 * Update Seats, and the cancellation. Loaded on demand (subscription-parts.ts), with Radix's dialog
 * and react-hook-form.
 */
import { PRO_PLAN_MIN_SEATS, SEATS_MAX } from "../../../shared/constants.ts";
import { SEAT_MESSAGES } from "../../../shared/contract/contributors.ts";
import { type Rule, required } from "../../../shared/validation.ts";
import { Button, Dialog, TextField } from "../../components/ui";
import { useRulesForm } from "../../lib/forms";
import { SUBSCRIPTIONS_TEXT as T } from "./billing-text";
import { formatMoney } from "./format-billing.ts";

/** docs/product.md#seats: a whole number, at least 1, not below the seats already allocated. */
export function seatRules(allocated: number): Rule[] {
  return [
    required,
    (value) => (/^\s*-?\d+\s*$/.test(value) ? undefined : T.seatsWhole),
    (value) => (Number(value) >= PRO_PLAN_MIN_SEATS ? undefined : T.seatsMin),
    (value) => (Number(value) <= SEATS_MAX ? undefined : T.seatsMax(SEATS_MAX)),
    (value) => (Number(value) >= allocated ? undefined : SEAT_MESSAGES.belowAllocated),
  ];
}

export interface SeatsDialogProps {
  mode: "upgrade" | "update";
  /** The count the field starts with. */
  initial: number;
  allocated: number;
  /** Per seat and month, minor units; shows the monthly total as the count changes (Update Seats). */
  unitPrice?: { amount: number; currency: string };
  busy: boolean;
  /** Answers false when the call failed: the dialog then stays open with the count. */
  onSubmit: (quantity: number) => Promise<boolean>;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

export function SeatsDialog({
  mode,
  initial,
  allocated,
  unitPrice,
  busy,
  onSubmit,
  onClose,
  returnFocusTo,
}: SeatsDialogProps) {
  const form = useRulesForm({ seats: seatRules(allocated) }, { seats: String(initial) });
  const quantity = Number(form.watch("seats"));
  const estimate =
    unitPrice && Number.isInteger(quantity) && quantity >= PRO_PLAN_MIN_SEATS
      ? T.seatsEstimate(quantity, formatMoney(unitPrice.amount * quantity, unitPrice.currency))
      : undefined;
  const formId = `seats-${mode}`;
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={mode === "upgrade" ? T.upgrade : T.updateSeats}
      description={mode === "upgrade" ? T.seatsUpgradeText : T.seatsUpdateText}
      returnFocusTo={returnFocusTo}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {T.dismiss}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {mode === "upgrade" ? T.toCheckout : T.updateSeats}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={form.handleSubmit(({ seats }) => onSubmit(Number(seats)))}
        className="space-y-3"
      >
        <TextField
          {...form.register("seats")}
          label={T.seatsField}
          type="number"
          inputMode="numeric"
          min={Math.max(PRO_PLAN_MIN_SEATS, allocated)}
          max={SEATS_MAX}
          step={1}
          required
          error={form.formState.errors.seats?.message}
          hint={T.seatsHint(allocated)}
        />
        {estimate ? (
          <p className="text-fg-muted text-sm" aria-live="polite">
            {estimate}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

export function CancelDialog({
  end,
  busy,
  onConfirm,
  onClose,
  returnFocusTo,
}: {
  /** When the paid period ends. */
  end: string | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}) {
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={T.cancel}
      description={T.cancelDialogText(end)}
      returnFocusTo={returnFocusTo}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {T.keepSubscription}
          </Button>
          <Button variant="danger" loading={busy} onClick={onConfirm}>
            {T.confirmCancellation}
          </Button>
        </>
      }
    />
  );
}
