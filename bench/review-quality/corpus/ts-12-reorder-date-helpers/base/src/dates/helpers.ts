const DAY_MS = 86_400_000;

export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function parseDay(text: string): Date {
  const date = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a day: ${text}`);
  return date;
}

export function formatRange(from: Date, to: Date): string {
  return `${formatDay(from)} to ${formatDay(to)}`;
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}
