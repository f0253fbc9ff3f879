/**
 * Contributors and seats (docs/product.md#contributors-and-seats): the contributors table, Add Contributor, seat
 * assignment, the rules that refuse a seat change, and their messages.
 */
import { PLAN_VALUES } from "../constants.ts";
import type { Plan, Subscription } from "./billing-schemas.ts";
import type { Contributor, SeatStatus } from "./contributors-schemas.ts";
import type { PageInfo } from "./paging.ts";

export type ContributorsPage = { contributors: Contributor[]; page: PageInfo };

export const CONTRIBUTOR_MESSAGES = {
  fetchFailed: "Failed to fetch contributors",
  addFailed: "Failed to add contributor",
  added: "Contributor added successfully",
  updated: "Contributor already exists and was updated",
  toggleFailed: "Failed to toggle seat assignment",
} as const;

/**
 * Who may hold a seat, decided once for the switch in the contributors table (its tooltip) and for
 * the backend's assign call (its refusal), so both say the same thing (docs/product.md#seats).
 */

export const SEAT_MESSAGES = {
  allSeatsInUse: "All seats are in use. Free up seats or upgrade your plan.",
  expired: "Seat management is disabled for expired subscriptions",
  notPro: "Seat management is only available for Pro plan",
  belowAllocated: "You can't reduce seats below the number already allocated. Please free up seats first.",
} as const;

/** What the rules read of a subscription: the backend has it from its row, the page from the API. */
type SeatSubscription = { plan: Pick<Plan, "plan_code"> } & Pick<Subscription, "isExpired">;

/** The Pro trial counts as Pro: a team tries seat management before it pays. */
export function isProPlan(subscription: Pick<SeatSubscription, "plan"> | null): boolean {
  const code = subscription?.plan.plan_code;
  return code === PLAN_VALUES.paid || code === PLAN_VALUES.proTrial;
}

/** Why seats cannot be managed at all right now, or null when they can. */
export function seatManagementBlock(subscription: SeatSubscription | null): string | null {
  if (!isProPlan(subscription)) return SEAT_MESSAGES.notPro;
  if (subscription?.isExpired) return SEAT_MESSAGES.expired;
  return null;
}

/**
 * Why a contributor's seat switch is disabled, or null. Taking a seat away stays possible while
 * all seats are in use; giving one needs a free seat.
 */
export function seatToggleBlock(
  subscription: SeatSubscription | null,
  seats: Pick<SeatStatus, "total_seats" | "allocated_seats">,
  hasSeat: boolean,
): string | null {
  const block = seatManagementBlock(subscription);
  if (block) return block;
  if (!hasSeat && seats.allocated_seats >= seats.total_seats) return SEAT_MESSAGES.allSeatsInUse;
  return null;
}
