/** The arithmetic of the benchmark: medians of runs, ratios, and the slope of a memory trend. */

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The item whose `value` is the median, the lower of the two middle ones for an even count. */
export function medianItem<T>(items: readonly T[], value: (item: T) => number): T {
  if (items.length === 0) throw new Error("median of no items");
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

/** The nearest-rank `q` quantile (0 < q ≤ 1) of `sorted`, ascending; NaN for no values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** `part / whole`; NaN when the whole is not a positive number (nothing to compare with). */
export function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : Number.NaN;
}

export interface Sample {
  /** Seconds since the first sample. */
  seconds: number;
  value: number;
}

/** The least-squares slope of `value` over time, per minute; 0 for fewer than two samples. */
export function slopePerMinute(samples: readonly Sample[]): number {
  if (samples.length < 2) return 0;
  const meanX = samples.reduce((sum, s) => sum + s.seconds, 0) / samples.length;
  const meanY = samples.reduce((sum, s) => sum + s.value, 0) / samples.length;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.seconds - meanX) * (s.value - meanY);
    variance += (s.seconds - meanX) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 60;
}
