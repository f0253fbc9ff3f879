/** Reading one page of a list (docs/decisions/038-server-side-paging.md). */
import type { PageInfo, PageQuery } from "../../shared/contract/paging.ts";

/** A LIKE pattern that finds `text` anywhere: its own %, _ and \ match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The rows to skip before the page. */
export function offsetOf(query: Pick<PageQuery, "page" | "pageSize">): number {
  return (query.page - 1) * query.pageSize;
}

/** The page's description in an answer. */
export function pageInfoOf(query: Pick<PageQuery, "page" | "pageSize">, total: number): PageInfo {
  return { total, page: query.page, pageSize: query.pageSize };
}
