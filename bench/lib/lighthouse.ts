/**
 * Lighthouse (its npm package) on Debian's Chromium, started headless with the flags this closed
 * network needs. Signed-in pages get the session cookie as an extra header. Each page's scores, and
 * the audits that cost points in a category under its target, so the report can say why.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
export const LIGHTHOUSE_CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

export interface LighthouseScores {
  /** 0–100 per category. */
  scores: Record<LighthouseCategory, number>;
  /** Titles of the audits short of a full score in each category, worst first. */
  shortfalls: Record<LighthouseCategory, string[]>;
}

export interface LighthousePage {
  url: string;
  headers?: Record<string, string>;
}

export async function runLighthouse(pages: LighthousePage[]): Promise<LighthouseScores[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const results: LighthouseScores[] = [];
    // One page at a time: Lighthouse drives a single tab.
    for (const page of pages) {
      const run = await lighthouse(page.url, {
        port: chrome.port,
        logLevel: "error",
        onlyCategories: [...LIGHTHOUSE_CATEGORIES],
        ...(page.headers ? { extraHeaders: page.headers } : {}),
      });
      if (!run) throw new Error(`Lighthouse gave no result for ${page.url}`);
      const { categories, audits } = run.lhr;
      const scoreOf = (id: LighthouseCategory) => Math.round((categories[id]?.score ?? Number.NaN) * 100);
      const shortfallsOf = (id: LighthouseCategory) =>
        (categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0)
          .map((ref) => audits[ref.id])
          .filter((audit) => audit && audit.score !== null && audit.score < 1)
          .sort((a, b) => (a?.score ?? 0) - (b?.score ?? 0))
          .map((audit) => `${audit?.title}${audit?.displayValue ? ` (${audit.displayValue})` : ""}`);
      results.push({
        scores: Object.fromEntries(
          LIGHTHOUSE_CATEGORIES.map((id) => [id, scoreOf(id)]),
        ) as LighthouseScores["scores"],
        shortfalls: Object.fromEntries(
          LIGHTHOUSE_CATEGORIES.map((id) => [id, shortfallsOf(id)]),
        ) as LighthouseScores["shortfalls"],
      });
    }
    return results;
  } finally {
    chrome.kill();
  }
}
