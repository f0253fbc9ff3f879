/**
 * The date and money formatters of the billing and contributor screens (docs/product.md#display-rules).
 * Apart from shared/format.ts, which the signed-in shell loads on every page, so only the pages
 * that show dates and amounts carry them. Pure and locale-stable, so server and browser renders agree.
 */
import { DEFAULT_CURRENCY } from "../../../shared/constants.ts";
import { onFirstUse } from "../../lib/formats.ts";

const dateFormat = onFirstUse(
  () =>
    new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      // One zone for server and browser renders, so both print the same day.
      timeZone: "UTC",
    }),
);

/** "23 Nov 2026": day, short month, year; empty → "N/A", not a date → "-". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "N/A";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "-" : dateFormat().format(date);
}

/** One formatter per currency code. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Minor units (cents) as US English currency: 1999 → "$19.99". The default currency unless one is named. */
export function formatMoney(minorUnits: number, currency = DEFAULT_CURRENCY): string {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    moneyFormats.set(code, format);
  }
  return format.format(minorUnits / 100);
}

const relativeTime = onFirstUse(() => new Intl.RelativeTimeFormat("en", { numeric: "always" }));
const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/**
 * "3 days ago", "in 2 hours": the largest whole unit between `value` and `now`; under a minute is
 * "0 minutes ago" (or "in 0 minutes"). Empty → "N/A", not a date → "-", as formatDate.
 */
export function formatRelativeTime(value: string | null | undefined, now: Date): string {
  if (!value) return "N/A";
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return "-";
  const difference = time - now.getTime();
  const [unit, size] =
    RELATIVE_UNITS.find(([, length]) => Math.abs(difference) >= length) ?? (["minute", 60_000] as const);
  // Math.trunc does not round "23 hours ago" up to "1 day ago", and keeps the sign even of 0.
  return relativeTime().format(Math.trunc(difference / size), unit);
}

/** A contributor's last activity: relative to now, or "No activity yet". */
export function formatLastActivity(value: string | null, now: Date): string {
  return value ? formatRelativeTime(value, now) : "No activity yet";
}
