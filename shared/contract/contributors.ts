/**
 * Contributors and seats (docs/product.md#contributors-and-seats): the contributors table, Add Contributor, seat
 * assignment, the rules that refuse a seat change, their messages, and the contributor and seat
 * calls of the HTTP contract (docs/product.md#api) as valibot schemas, one module. Dates are ISO
 * 8601 strings.
 */
import * as v from "valibot";
import { ID_MAX, PLAN_VALUES } from "../constants.ts";
import type { Plan, Subscription } from "./billing.ts";
import { CONTRIBUTOR_SORTS, type PageInfo, pageInfoSchema, pageQuerySchema } from "./paging.ts";
import { integerSchema, schema } from "./schema.ts";

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

export const contributorSchema = schema(() =>
  v.object({
    id: v.string(),
    name: v.string(),
    /** The code host's username. */
    platform_id: v.string(),
    platform_type: v.string(),
    email: v.nullable(v.string()),
    avatar_url: v.nullable(v.string()),
    /** ISO date of the latest activity seen on the code host; null is 'No activity yet'. */
    last_git_activity: v.nullable(v.string()),
    role: v.nullable(v.string()),
    /** Null: no seat. */
    seat_id: v.nullable(v.string()),
  }),
);

export type Contributor = v.InferOutput<typeof contributorSchema>;

export type ContributorsQuery = v.InferOutput<typeof contributorsQuerySchema>;

export const contributorsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.array(contributorSchema),
    page: pageInfoSchema,
  }),
);

/** POST /api/contributors/add: looked up on the code host by username. */
export const addContributorRequestSchema = schema(() =>
  v.object({
    platform_id: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(ID_MAX)),
    platform_type: v.literal("github"),
  }),
);

export type AddContributorRequest = v.InferOutput<typeof addContributorRequestSchema>;

/** `created` false: the contributor existed and was updated. */
export const addContributorResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    created: v.boolean(),
    message: v.string(),
    data: contributorSchema,
  }),
);

/**
 * GET /api/contributors/suggestions: people the Add Contributor dialog offers, by name. Empty when
 * the code host cannot list its accounts (GitHub) or none is connected.
 */
export const contributorSuggestionSchema = schema(() =>
  v.object({ platform_id: v.string(), name: v.string() }),
);

export type ContributorSuggestion = v.InferOutput<typeof contributorSuggestionSchema>;

export const contributorSuggestionsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.array(contributorSuggestionSchema),
  }),
);

/** POST /api/seats/assign and /api/seats/unassign; `userId` is the contributor's id. */
export const seatRequestSchema = schema(() =>
  v.object({
    userId: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)),
  }),
);

export const seatStatusSchema = schema(() =>
  v.object({
    total_seats: integerSchema,
    allocated_seats: integerSchema,
    /** total minus allocated. */
    available_seats: integerSchema,
  }),
);

export type SeatStatus = v.InferOutput<typeof seatStatusSchema>;

/** GET /api/seats/status */
export const seatStatusResponseSchema = schema(() =>
  v.object({ success: v.boolean(), data: seatStatusSchema }),
);

/** Assign and unassign answer the seat count after the change. */
export const seatChangeResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    message: v.string(),
    data: seatStatusSchema,
  }),
);

/** GET /api/contributors: one page (`page`, `pageSize`, `search` in the name, `sort`: shared/contract/paging.ts). */
export const contributorsQuerySchema = schema(() => pageQuerySchema(CONTRIBUTOR_SORTS));
