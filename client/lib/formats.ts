/**
 * Counts and moments as the product writes them everywhere (docs/product.md#display-rules): pure
 * and locale-stable, so the server render and the browser's agree. Apart from shared/format.ts,
 * which every page loads, so only the pages that show these carry them.
 */

/**
 * Formatters are built on first use and kept: building one took milliseconds of the first load's
 * script evaluation on a slow phone, for formats the page may never show.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

const countFormat = onFirstUse(() => new Intl.NumberFormat("en-US"));

/** "1,991": a count with thousands separators. */
export function formatCount(count: number): string {
  return countFormat().format(count);
}

// One time zone on the server and in the browser, so the first render hydrates as it was sent.
const dateTimeFormat = (timeStyle: "short" | "medium") =>
  onFirstUse(() => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle, timeZone: "UTC" }));
const dateTimeFormats = { minutes: dateTimeFormat("short"), seconds: dateTimeFormat("medium") };

/**
 * "27 Nov 2026, 06:31 UTC": the product's day, short month and year, then the time in UTC (with
 * seconds when asked). Text that is not a moment is returned as it is.
 */
export function formatDateTime(iso: string, { seconds = false }: { seconds?: boolean } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${dateTimeFormats[seconds ? "seconds" : "minutes"]().format(date)} UTC`;
}
