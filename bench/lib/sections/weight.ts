/**
 * First-load JavaScript and CSS of the rendered pages: counted from the build (gzip -9,
 * scripts/lib/page-weight.ts), and measured in Chromium until the network is idle for the pages
 * the targets name (./first-load.ts).
 */

import { firstLoadInChromium } from "../../../scripts/lib/first-load.ts";
import {
  firstLoadScripts,
  firstLoadStylesheets,
  gzipKilobytes,
  readClientBuild,
} from "../../../scripts/lib/page-weight.ts";
import { SESSION_COOKIE_NAME } from "../../../shared/constants.ts";
import { launchBrowser } from "../../../tests/e2e/browser.ts";
import type { ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { TARGETS } from "../targets.ts";

/** The pages whose first load in Chromium is held to a target, and whether they are signed in. */
const MEASURED_IN_CHROMIUM = [
  { path: "/login", signedIn: false },
  { path: "/home", signedIn: true },
] as const;

export async function weightSection(
  html: Record<string, string>,
  stack: BenchStack,
  account: BenchAccount,
): Promise<ReportSection> {
  const build = readClientBuild();
  const browser = await launchBrowser();
  const loads = [];
  try {
    for (const page of MEASURED_IN_CHROMIUM) {
      const context = await browser.newContext();
      if (page.signedIn) {
        const domain = new URL(stack.gatewayUrl).hostname;
        await context.addCookies([{ name: SESSION_COOKIE_NAME, value: account.token, domain, path: "/" }]);
      }
      const load = await firstLoadInChromium(context, `${stack.gatewayUrl}${page.path}`);
      await context.close();
      if (load.status !== 200 || load.finalPath !== page.path)
        throw new Error(`${page.path} answered ${load.status} at ${load.finalPath}`);
      loads.push({
        ...page,
        kilobytes: load.kilobytes,
        sentKilobytes: load.sentKilobytes,
        files: load.scripts.size,
      });
    }
  } finally {
    await browser.close();
  }
  return {
    title: "Client weight",
    intro:
      "What a first load of each page fetches, gzipped at level 9 (1 kB = 1000 bytes). First, counted from the build: the JavaScript the HTML names and its static imports, and the stylesheets (the budgets are the page-weight test's, docs/decisions/006-page-weight.md). Then measured in Chromium: every script the page fetched until the network was idle, lazy chunks included, gzipped at level 9 as above (the targets' measure) and as the gateway sent it (Brotli made at build time, docs/decisions/054-precompressed-assets.md).",
    tables: [
      {
        headers: ["page", "JavaScript kB", "files", "CSS kB", "files"],
        rows: Object.entries(html).map(([page, text]) => {
          const scripts = firstLoadScripts(build, page);
          const stylesheets = firstLoadStylesheets(build, page, text);
          return [
            page,
            gzipKilobytes(build, scripts).toFixed(1),
            String(scripts.length),
            gzipKilobytes(build, stylesheets).toFixed(1),
            String(stylesheets.length),
          ];
        }),
      },
      {
        headers: ["page in Chromium", "JavaScript kB", "as sent (Brotli) kB", "files"],
        rows: loads.map((load) => [
          load.path,
          load.kilobytes.toFixed(1),
          load.sentKilobytes.toFixed(1),
          String(load.files),
        ]),
      },
    ],
    checks: loads.map((load) => ({
      figure: `${load.path} first-load JavaScript in Chromium`,
      value: load.kilobytes,
      unit: "kB" as const,
      target: TARGETS.firstLoadJsKb,
    })),
  };
}
