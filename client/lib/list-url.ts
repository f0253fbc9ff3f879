/**
 * A paged list's state in the page's URL (`?search=…&page=…` and a list's own filters), so that a
 * link and the back button keep the page (docs/decisions/038-server-side-paging.md).
 */
import { PAGE_MAX, SEARCH_MAX } from "../../shared/contract/paging.ts";

export interface ListState {
  page: number;
  search: string;
}

/** What the URL asks for; anything malformed is the first page, unsearched. */
export function listStateOf(url: URL | string): ListState {
  const params = new URL(url, "http://page.invalid").searchParams;
  const page = Number(params.get("page"));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= PAGE_MAX ? page : 1,
    search: (params.get("search") ?? "").trim().slice(0, SEARCH_MAX),
  };
}

/** The query string of a list's state, `?` included; the defaults are left out. */
export function listSearchOf(
  state: Partial<ListState>,
  filters: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (state.search) params.set("search", state.search);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}
