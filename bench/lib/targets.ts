/**
 * The figures the benchmark holds the product to, and the check of a figure against its target.
 * Throughput targets are ratios to a reference measured side by side in the same run, so they mean
 * the same on a busy machine as on a quiet one (docs/decisions/023-benchmarks.md).
 */

export interface Target {
  /** "at least" or "at most" (an equal figure passes), or "below" (strictly). */
  kind: "atLeast" | "atMost" | "below";
  threshold: number;
  /** How the threshold reads in the report, e.g. "≥ 0.50×". */
  label: string;
}

export const atLeast = (threshold: number, label: string): Target => ({ kind: "atLeast", threshold, label });
export const atMost = (threshold: number, label: string): Target => ({ kind: "atMost", threshold, label });
export const below = (threshold: number, label: string): Target => ({ kind: "below", threshold, label });

/** A figure that could not be taken (NaN) neither passes nor fails: the report says "n/a". */
export type Verdict = "pass" | "fail" | "n/a";

export function verdict(value: number, target: Target): Verdict {
  if (!Number.isFinite(value)) return "n/a";
  switch (target.kind) {
    case "atLeast":
      return value >= target.threshold ? "pass" : "fail";
    case "atMost":
      return value <= target.threshold ? "pass" : "fail";
    case "below":
      return value < target.threshold ? "pass" : "fail";
  }
}

export const TARGETS = {
  /** An API call against the backend's /healthz, each direct, on the embedded database. */
  apiVsHealthPglite: atLeast(0.5, "≥ 0.50× /healthz"),
  /** The same on a Postgres server, where every query is a round trip over a socket. */
  apiVsHealthPostgres: atLeast(0.35, "≥ 0.35× /healthz"),
  /** The same call through the gateway against direct to the backend. */
  proxyVsDirect: atLeast(0.6, "≥ 0.60× direct"),
  /** The same call through the gateway against through nginx. */
  proxyVsNginx: atLeast(0.7, "≥ 0.70× nginx"),
  /** What the gateway adds to the median latency with one connection, in ms. */
  addedP50LowLoadMs: below(1, "< 1 ms"),
  /** A guest page (the same for every visitor) against the same bytes as a static file. */
  guestVsStatic: atLeast(0.8, "≥ 0.80× static"),
  /** A signed-in page rendered against the same bytes as a static file. */
  signedInVsStatic: atLeast(0.25, "≥ 0.25× static"),
  gatewayRssMb: atMost(220, "≤ 220 MB"),
  /** JavaScript a page's first load fetches in Chromium until the network is idle, gzip kB. */
  firstLoadJsKb: atMost(120, "≤ 120 kB"),
  /** Growth over the soak within the noise of garbage collection counts as no trend. */
  soakSlopeMbPerMinute: atMost(1, "≤ 1 MB/min"),
  lighthousePerformance: atLeast(95, "≥ 95"),
  lighthouseAccessibility: atLeast(100, "100"),
  lighthouseBestPractices: atLeast(95, "≥ 95"),
} as const;
