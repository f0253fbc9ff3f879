/**
 * Server-side paging, search and sort of the API's lists (repositories, contributors, review runs;
 * docs/decisions/038-server-side-paging.md): the bounds, sorts and query strings, written once for
 * the backend, the loaders and the browser, then the valibot schemas of the query and the page, in
 * one module; a page that does not use the schemas tree-shakes them away.
 */
import * as v from "valibot";
import { schema } from "./schema.ts";

/** The most items one answer holds, whatever the caller asks. */
export const PAGE_SIZE_MAX = 100;

/** A list call that names no page size gets this many. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * Repository cards on one page of /home: four rows of three. Rendering a card is most of the page's
 * server time, so its throughput follows this number (bench:org measured 0.52× a 10-card page at 24).
 */
export const HOME_PAGE_SIZE = 12;

/** Review runs on one page of /reviews. */
export const REVIEWS_PAGE_SIZE = 50;

/** The longest search string a list takes. */
export const SEARCH_MAX = 100;

/** Pages beyond this are not asked for by any screen; it bounds the offset the database walks. */
export const PAGE_MAX = 10_000;

/** What every paged answer says beside its items (pageInfoSchema). `page` is 1-based. */
export interface PageInfo {
  total: number;
  page: number;
  pageSize: number;
}

/** The number of pages `info` makes, at least 1 (an empty list is one empty page). */
export function pageCount(info: Pick<PageInfo, "total" | "pageSize">): number {
  return Math.max(1, Math.ceil(info.total / info.pageSize));
}

export type PageQuery<Sort extends string = string> = {
  page: number;
  pageSize: number;
  search: string;
  sort: Sort;
};

/** Sorts of GET /api/projects: by full name, then id. */
export const PROJECT_SORTS = ["name", "-name"] as const;

export type ProjectSort = (typeof PROJECT_SORTS)[number];

/**
 * Sorts of GET /api/contributors: by name, username or latest activity (people without activity
 * come last either way), each then by id so pages never overlap.
 */
export const CONTRIBUTOR_SORTS = [
  "name",
  "-name",
  "platform_id",
  "-platform_id",
  "-last_git_activity",
  "last_git_activity",
] as const;

export type ContributorSort = (typeof CONTRIBUTOR_SORTS)[number];

/** Sorts of GET /api/reviews: newest first, or oldest first. */
export const REVIEW_SORTS = ["-queued_at", "queued_at"] as const;

export type ReviewSort = (typeof REVIEW_SORTS)[number];

/**
 * The query string of a paged call, `?` included, with only what differs from the defaults, so
 * equal pages have equal URLs. `extra` adds a call's own filters (undefined or "" are left out).
 */
export function pageQueryString(
  query: Partial<PageQuery>,
  extra: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(extra)) if (value) params.set(key, value);
  if (query.page !== undefined && query.page !== 1) params.set("page", String(query.page));
  if (query.pageSize !== undefined) params.set("pageSize", String(query.pageSize));
  if (query.search) params.set("search", query.search);
  if (query.sort) params.set("sort", query.sort);
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const pageInfoSchema = schema(
  () =>
    v.object({
      total: v.pipe(v.number(), v.integer(), v.minValue(0)),
      page: v.pipe(v.number(), v.integer(), v.gtValue(0)),
      pageSize: v.pipe(v.number(), v.integer(), v.gtValue(0)),
    }) satisfies v.GenericSchema<PageInfo>,
);

/**
 * A whole number in [1, max] from a query value (a string; a number passes too), `fallback` when
 * absent. Converted with Number(), so "" is 0 and refused, and non-numbers (NaN) are refused.
 */
function queryNumber(max: number, fallback: number) {
  return v.optional(
    v.pipe(
      v.union([v.string(), v.number()]),
      v.transform(Number),
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(max),
    ),
    fallback,
  );
}

/**
 * The query of a paged list: `page`, `pageSize`, `search` (a part of the name, any case) and
 * `sort`, one of `sorts` (a leading "-" is descending). Query values arrive as strings.
 */
export function pageQuerySchema<const Sorts extends readonly [string, ...string[]]>(sorts: Sorts) {
  return v.object({
    page: queryNumber(PAGE_MAX, 1),
    pageSize: queryNumber(PAGE_SIZE_MAX, DEFAULT_PAGE_SIZE),
    search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(SEARCH_MAX)), ""),
    sort: v.optional(v.picklist(sorts), sorts[0]),
  });
}
