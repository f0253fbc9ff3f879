/**
 * The one clock billing reads: trial days, ending-soon, period ends and cancellation dates all come
 * from it, so a test that sets it sees a consistent timeline. Production uses the real time.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight (UTC) of the day `date` falls on. */
export function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/**
 * Calendar days (UTC) from `now` to `end`: 0 on the day of `end`, negative after it. Counting days,
 * not hours, keeps "expires today" true for the whole last day.
 */
export function daysUntil(end: Date, now: Date): number {
  return Math.round((startOfUtcDay(end).getTime() - startOfUtcDay(now).getTime()) / DAY_MS);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** One billing month on: the same day of the next month (clamped to its last day). */
export function addOneMonth(date: Date): Date {
  const next = new Date(date);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
