import { z } from "zod";
import { DEFAULT_PAGE_SIZE, PAGE_MAX, PAGE_SIZE_MAX, type PageInfo, SEARCH_MAX } from "./paging.ts";

export const pageInfoSchema = z.object({
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
}) satisfies z.ZodType<PageInfo>;

/**
 * The query of a paged list: `page`, `pageSize`, `search` (a part of the name, any case) and
 * `sort`, one of `sorts` (a leading "-" is descending). Query values arrive as strings.
 */
export function pageQuerySchema<const Sorts extends readonly [string, ...string[]]>(sorts: Sorts) {
  return z.object({
    page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
    pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(DEFAULT_PAGE_SIZE),
    search: z.string().trim().max(SEARCH_MAX).default(""),
    sort: z.enum(sorts).default(sorts[0]),
  });
}
