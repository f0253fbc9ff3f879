/**
 * Lighthouse's performance, accessibility and best-practices scores of three pages, each the median
 * of several runs taken in turn. One run's simulated first paint is either about 1.2 s or about
 * 2.8 s, depending on whether the page's module scripts happened to finish loading before the paint
 * it observed (docs/performance.md, eleventh round); Lighthouse's own guidance for such variance is
 * the median of several runs.
 */
import { type LighthouseCategory, runLighthouse } from "../lighthouse.ts";
import type { BenchOptions } from "../options.ts";
import type { Check, ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { medianItem } from "../stats.ts";
import { TARGETS, type Target, verdict } from "../targets.ts";

const PAGES = [
  { path: "/login", signedIn: false },
  { path: "/home", signedIn: true },
  { path: "/subscriptions", signedIn: true },
];
const CATEGORY_TARGETS: Record<LighthouseCategory, Target> = {
  performance: TARGETS.lighthousePerformance,
  accessibility: TARGETS.lighthouseAccessibility,
  "best-practices": TARGETS.lighthouseBestPractices,
};
/** How many of the audits that cost points the report names. */
const SHORTFALLS_SHOWN = 4;

export async function lighthouseSection(
  stack: BenchStack,
  account: BenchAccount,
  options: Pick<BenchOptions, "runs">,
): Promise<ReportSection> {
  const pages = PAGES.map((page) => ({
    url: `${stack.gatewayUrl}${page.path}`,
    ...(page.signedIn ? { headers: { Cookie: account.cookie.cookie as string } } : {}),
  }));
  // The pages in turn, round after round, so a busy stretch of the machine falls on all of them.
  const rounds = Array.from({ length: options.runs }, () => pages).flat();
  const results = await runLighthouse(rounds);
  const runsOf = (index: number) => results.filter((_, i) => i % PAGES.length === index);

  const checks: Check[] = [];
  const notes: string[] = [];
  const rows: string[][] = [];
  PAGES.forEach((page, index) => {
    const runs = runsOf(index);
    if (runs.length === 0) return;
    rows.push([page.path, runs.map((run) => String(run.scores.performance)).join(", ")]);
    for (const [category, target] of Object.entries(CATEGORY_TARGETS) as [LighthouseCategory, Target][]) {
      // The median run gives both the score and the audits it fell short on.
      const middle = medianItem(runs, (run) => run.scores[category]);
      const value = middle.scores[category];
      checks.push({ figure: `${page.path} ${category}`, value, unit: "", target });
      const shortfalls = middle.shortfalls[category].slice(0, SHORTFALLS_SHOWN);
      if (verdict(value, target) === "fail" && shortfalls.length > 0) {
        notes.push(`${page.path} ${category} (its median run): ${shortfalls.join("; ")}.`);
      }
    }
  });
  return {
    title: "Lighthouse",
    intro: `Lighthouse's default run (mobile, simulated throttling) in headless Chromium, ${options.runs} runs of each page taken in turn; each score is the median of its runs (the lower middle one for an even count). /home and /subscriptions signed in with the cookie as an extra header.`,
    tables: [{ headers: ["page", "performance of each run"], rows }],
    checks,
    notes,
  };
}
