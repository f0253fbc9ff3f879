/**
 * The date and money formatters of the billing and contributor screens (docs/product.md#display-rules).
 * Apart from shared/format.ts, which the signed-in shell loads on every page, so only the pages
 * that show dates and amounts carry them. Pure and locale-stable, so server and browser renders agree.
 */
import { DEFAULT_CURRENCY } from "./constants.ts";

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  // One zone for server and browser renders, so both print the same day.
  timeZone: "UTC",
});

/** "23 Nov 2026": day, short month, year; empty → "N/A", not a date → "-". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "N/A";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "-" : DATE_FORMAT.format(date);
}

/** Minor units (cents) as US English currency: 1999 → "$19.99". The default currency unless one is named. */
export function formatMoney(minorUnits: number, currency = DEFAULT_CURRENCY): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(
    minorUnits / 100,
  );
}
