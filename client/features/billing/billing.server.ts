/**
 * The billing pages' data, loaded on the server (docs/product.md#subscriptions), so the API client
 * stays out of their bundles.
 */
import { data } from "react-router";
import {
  type creditResponseSchema,
  type SandboxCheckout,
  SUBSCRIPTION_MESSAGES,
  type Subscription,
  type sandboxCheckoutResponseSchema,
  type subscriptionResponseSchema,
} from "../../../shared/contract/billing.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import type { SeatStatus, seatStatusResponseSchema } from "../../../shared/contract/contributors.ts";
import { type ApiClient, ApiError } from "../../lib/api-client.ts";
import { type LoadResult, settle } from "../../lib/load-result.server";

type Api = Pick<ApiClient, "call">;

export interface Billing {
  /** Null: 'No subscriptions found'. */
  subscription: Subscription | null;
  creditBalanceCents: number;
  seats: SeatStatus;
}

/** /subscriptions: the subscription, the credit and the seat counts, all three or an error. */
export function loadBilling(api: Api): Promise<LoadResult<Billing>> {
  return settle(
    Promise.all([
      api.call<typeof subscriptionResponseSchema>(API_PATHS.subscription),
      api.call<typeof creditResponseSchema>(API_PATHS.subscriptionCredit),
      api.call<typeof seatStatusResponseSchema>(API_PATHS.seatStatus),
    ]).then(([subscription, credit, seats]) => ({
      subscription: subscription.subscription,
      creditBalanceCents: credit.creditBalanceCents,
      seats: seats.data,
    })),
    SUBSCRIPTION_MESSAGES.loadFailed,
  );
}

/** A 404 page where the backend answers 404: its billing is Stripe, or the sandbox has no such thing. */
function notFoundOn404(error: unknown): never {
  if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
  throw error;
}

/** /sandbox/checkout: the open payment session; a 404 without an id or outside sandbox billing. */
export async function loadSandboxCheckout(api: Api, sessionId: string | null): Promise<SandboxCheckout> {
  if (!sessionId) throw data(null, { status: 404 });
  const answer = await api
    .call<typeof sandboxCheckoutResponseSchema>(API_PATHS.sandboxCheckout(sessionId))
    .catch(notFoundOn404);
  return answer.data;
}

/** /sandbox/portal: the subscription the sandbox's portal shows; a 404 outside sandbox billing. */
export async function loadSandboxPortal(api: Api): Promise<Subscription | null> {
  const answer = await api
    .call<typeof subscriptionResponseSchema>(API_PATHS.sandboxPortal)
    .catch(notFoundOn404);
  return answer.subscription;
}
