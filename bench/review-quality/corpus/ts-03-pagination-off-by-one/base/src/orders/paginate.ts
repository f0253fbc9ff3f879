export interface Page<T> {
  items: T[];
  page: number;
  pageCount: number;
}

export const PAGE_SIZE = 25;

export function pageCount(total: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}
