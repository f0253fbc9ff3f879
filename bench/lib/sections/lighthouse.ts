/** Lighthouse's performance, accessibility and best-practices scores of three pages. */
import { type LighthouseCategory, runLighthouse } from "../lighthouse.ts";
import type { Check, ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
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

export async function lighthouseSection(stack: BenchStack, account: BenchAccount): Promise<ReportSection> {
  const results = await runLighthouse(
    PAGES.map((page) => ({
      url: `${stack.gatewayUrl}${page.path}`,
      ...(page.signedIn ? { headers: { Cookie: account.cookie.cookie as string } } : {}),
    })),
  );
  const checks: Check[] = [];
  const notes: string[] = [];
  PAGES.forEach((page, i) => {
    const result = results[i];
    if (!result) return;
    for (const [category, target] of Object.entries(CATEGORY_TARGETS) as [LighthouseCategory, Target][]) {
      const value = result.scores[category];
      checks.push({ figure: `${page.path} ${category}`, value, unit: "", target });
      const shortfalls = result.shortfalls[category].slice(0, SHORTFALLS_SHOWN);
      if (verdict(value, target) === "fail" && shortfalls.length > 0) {
        notes.push(`${page.path} ${category}: ${shortfalls.join("; ")}.`);
      }
    }
  });
  return {
    title: "Lighthouse",
    intro:
      "Lighthouse's default run (mobile, simulated throttling) in headless Chromium; /home and /subscriptions signed in with the cookie as an extra header.",
    tables: [],
    checks,
    notes,
  };
}
