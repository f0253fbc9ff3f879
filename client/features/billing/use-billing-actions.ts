import { useCallback, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import type { Subscription } from "../../../shared/contract/billing.ts";
import { SUBSCRIPTION_MESSAGES as M } from "../../../shared/contract/billing.ts";
import { useToast } from "../../components/ui";
import { useFollowUrl } from "../../lib/use-follow-url";
// Types only: the module itself loads on demand.
import type * as BillingApi from "./billing-api";
import type { Outcome } from "./billing-api";
import { billingApi } from "./lazy-billing";

type Api = typeof BillingApi;

export type BillingAction = "seats" | "portal" | "cancel" | "resume";

/**
 * The /subscriptions actions and their toasts (docs/product.md#subscriptions): one at a time, each
 * answered by a toast; checkout, seat update and portal then go to the URL the backend answered,
 * cancel and resume load the page's data again.
 */
export function useBillingActions(user: { orgId: string; email: string }, subscription: Subscription) {
  const { toast } = useToast();
  const follow = useFollowUrl();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<BillingAction | null>(null);
  // Set at once, before the re-render that disables the buttons: a double click calls once.
  const running = useRef(false);

  const run = useCallback(
    async <T>(
      action: BillingAction,
      call: (api: Api) => Promise<Outcome<T>>,
      then: (value: T) => unknown,
    ): Promise<boolean> => {
      if (running.current) return false;
      running.current = true;
      setBusy(action);
      try {
        const outcome = await billingApi
          .load()
          .then(call)
          .catch((): Outcome<T> => ({ ok: false, message: M.requestFailed }));
        if (!outcome.ok) toast({ tone: "danger", title: outcome.message });
        else await then(outcome.value);
        return outcome.ok;
      } finally {
        running.current = false;
        setBusy(null);
      }
    },
    [toast],
  );

  const redirect = (message: string) => (url: string) => {
    toast({ tone: "info", title: message });
    follow(url);
  };
  const reload = (message: string) => async () => {
    toast({ tone: "success", title: message });
    await revalidator.revalidate();
  };
  const { orgId, email } = user;
  const subscriptionId = subscription.stripe_subscription_id;

  return {
    busy,
    checkout: (quantity: number) =>
      run("seats", (api) => api.startCheckout({ orgId, quantity, email }), redirect(M.redirectingToCheckout)),
    updateSeats: (quantity: number) => {
      if (!subscriptionId) {
        toast({ tone: "danger", title: M.invalidSubscriptionId });
        return Promise.resolve(false);
      }
      return run(
        "seats",
        (api) => api.updateSeats({ subscriptionId, quantity, email }),
        redirect(M.redirectingToConfirmation),
      );
    },
    openPortal: () => run("portal", (api) => api.openPortal(orgId), redirect(M.openingPortal)),
    cancel: () => run("cancel", (api) => api.cancelSubscription(orgId), reload(M.cancellationScheduled)),
    resume: () => run("resume", (api) => api.resumeSubscription(orgId), reload(M.resumed)),
  };
}
