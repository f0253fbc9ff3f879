/**
 * The billing calls from the browser to the gateway (same origin, the session cookie):
 * docs/product.md#subscriptions, #payment-success and the sandbox's checkout.
 *
 * Pages load it on demand (`billingApi` in lazy-billing.ts), to keep the call code off the first load.
 */

import {
  type billingActionResponseSchema,
  type CheckoutRequest,
  type redirectResponseSchema,
  SUBSCRIPTION_MESSAGES,
  type UpdateSubscriptionRequest,
  type ValidateSessionResponse,
  type validateSessionResponseSchema,
} from "../../../shared/contract/billing.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";

const api = browserApiClient();

export type Outcome<T = undefined> = { ok: true; value: T } | { ok: false; message: string };

/**
 * `refused` when the backend answered an error, `unreachable` when nothing answered (or the answer
 * was not the contract's shape).
 */
async function outcomeOf<T>(call: Promise<T>, refused: string, unreachable = refused): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    return { ok: false, message: error instanceof ApiError && !error.unreachable ? refused : unreachable };
  }
}

const redirectTo = (path: string, body?: unknown) =>
  api.call<typeof redirectResponseSchema>(path, { method: "POST", body }).then((answer) => answer.url);

/** Upgrade to Pro: answers the checkout's URL. */
export function startCheckout(body: CheckoutRequest): Promise<Outcome<string>> {
  return outcomeOf(
    redirectTo(API_PATHS.checkoutSession, body),
    SUBSCRIPTION_MESSAGES.checkoutFailed,
    SUBSCRIPTION_MESSAGES.checkoutError,
  );
}

/** A new seat count for the Pro subscription: answers where to confirm it. */
export function updateSeats(body: UpdateSubscriptionRequest): Promise<Outcome<string>> {
  return outcomeOf(redirectTo(API_PATHS.updateSubscription, body), SUBSCRIPTION_MESSAGES.seatUpdateError);
}

/** The billing portal (payment methods, invoices): answers its URL. */
export function openPortal(orgId: string): Promise<Outcome<string>> {
  return outcomeOf(
    redirectTo(API_PATHS.customerPortal, { orgId }),
    SUBSCRIPTION_MESSAGES.portalFailed,
    SUBSCRIPTION_MESSAGES.portalOpenError,
  );
}

/** A `success: false` answer is a refusal too. */
async function action(path: string, body: unknown, failed: string): Promise<Outcome> {
  const outcome = await outcomeOf(
    api.call<typeof billingActionResponseSchema>(path, { method: "POST", body }),
    failed,
  );
  if (!outcome.ok) return outcome;
  return outcome.value.success ? { ok: true, value: undefined } : { ok: false, message: failed };
}

/** Cancels at the end of the paid period (docs/product.md#subscription-status). */
export function cancelSubscription(orgId: string): Promise<Outcome> {
  return action(API_PATHS.cancelSubscription, { orgId, immediate: true }, SUBSCRIPTION_MESSAGES.cancelFailed);
}

export function resumeSubscription(orgId: string): Promise<Outcome> {
  return action(API_PATHS.resumeSubscription, { orgId }, SUBSCRIPTION_MESSAGES.resumeFailed);
}

/**
 * One validation of a returning checkout; /payment-success polls it until it is confirmed or its
 * time is up. Any failure may pass on a later call: a session the backend does not know yet (the
 * provider's answer still on its way), a provider failing, a network failure.
 */
export async function validateSession(sessionId: string): Promise<ValidateSessionResponse | undefined> {
  return api
    .call<typeof validateSessionResponseSchema>(API_PATHS.validateSession(sessionId))
    .catch(() => undefined);
}

/** The sandbox checkout's Pay and Cancel: each answers where the browser goes next. */
export function finishSandboxCheckout(sessionId: string, pay: boolean): Promise<Outcome<string>> {
  const path = pay
    ? API_PATHS.sandboxCheckoutComplete(sessionId)
    : API_PATHS.sandboxCheckoutCancel(sessionId);
  return outcomeOf(redirectTo(path), SUBSCRIPTION_MESSAGES.requestFailed);
}
