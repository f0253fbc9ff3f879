/** The zod schemas of shared/contract/contributors.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { ID_MAX } from "../constants.ts";
import { CONTRIBUTOR_SORTS } from "./paging.ts";
import { pageInfoSchema, pageQuerySchema } from "./paging-schemas.ts";

/**
 * The billing, contributor and seat calls of the HTTP contract (docs/product.md#api), as zod schemas.
 * Kept beside shared/contract/ so the pages that do not bill never load them.
 *
 * Money is in minor units (cents) everywhere: plan prices, payment amounts and credit balances.
 * Dates are ISO 8601 strings.
 */

export const contributorSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The code host's username. */
  platform_id: z.string(),
  platform_type: z.string(),
  email: z.string().nullable(),
  avatar_url: z.string().nullable(),
  /** ISO date of the latest activity seen on the code host; null is 'No activity yet'. */
  last_git_activity: z.string().nullable(),
  role: z.string().nullable(),
  /** Null: no seat. */
  seat_id: z.string().nullable(),
});

export type Contributor = z.infer<typeof contributorSchema>;

export type ContributorsQuery = z.infer<typeof contributorsQuerySchema>;

export const contributorsResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(contributorSchema),
  page: pageInfoSchema,
});

/** POST /api/contributors/add: looked up on the code host by username. */
export const addContributorRequestSchema = z.object({
  platform_id: z.string().trim().min(1).max(ID_MAX),
  platform_type: z.literal("github"),
});

export type AddContributorRequest = z.infer<typeof addContributorRequestSchema>;

/** `created` false: the contributor existed and was updated. */
export const addContributorResponseSchema = z.object({
  success: z.boolean(),
  created: z.boolean(),
  message: z.string(),
  data: contributorSchema,
});

/**
 * GET /api/contributors/suggestions: people the Add Contributor dialog offers, by name. Empty when
 * the code host cannot list its accounts (GitHub) or none is connected.
 */
export const contributorSuggestionSchema = z.object({ platform_id: z.string(), name: z.string() });

export type ContributorSuggestion = z.infer<typeof contributorSuggestionSchema>;

export const contributorSuggestionsResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(contributorSuggestionSchema),
});

/** POST /api/seats/assign and /api/seats/unassign; `userId` is the contributor's id. */
export const seatRequestSchema = z.object({ userId: z.string().min(1).max(ID_MAX) });

export const seatStatusSchema = z.object({
  total_seats: z.number().int(),
  allocated_seats: z.number().int(),
  /** total minus allocated. */
  available_seats: z.number().int(),
});

export type SeatStatus = z.infer<typeof seatStatusSchema>;

/** GET /api/seats/status */
export const seatStatusResponseSchema = z.object({ success: z.boolean(), data: seatStatusSchema });

/** Assign and unassign answer the seat count after the change. */
export const seatChangeResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  data: seatStatusSchema,
});

/** GET /api/contributors: one page (`page`, `pageSize`, `search` in the name, `sort`: shared/contract/common.ts). */
export const contributorsQuerySchema = pageQuerySchema(CONTRIBUTOR_SORTS);
