/**
 * The JavaScript a page's first load fetches in Chromium, until the network is idle: what the HTML
 * names, what those modules import, and whatever the page starts loading by itself after hydration
 * (lazy chunks, route prefetches). The static count of ./page-weight.ts sees only the first two; a
 * visitor pays for all three. Each body is gzipped at level 9, as the static count does
 * (docs/decisions/046-first-load-in-chromium.md). The browser test and the bench both weigh pages
 * with it.
 */
import { gzipSync } from "node:zlib";
import type { BrowserContext } from "playwright-core";

export interface FirstLoad {
  /** Gzip -9 of every script fetched, in kB (1 kB = 1000 bytes). */
  kilobytes: number;
  /** Each script's path and gzipped bytes. */
  scripts: Map<string, number>;
  /** Where the page ended up, after redirects. */
  finalPath: string;
  status: number | undefined;
}

export async function firstLoadInChromium(context: BrowserContext, url: string): Promise<FirstLoad> {
  const page = await context.newPage();
  try {
    const reads: Promise<void>[] = [];
    const scripts = new Map<string, number>();
    page.on("response", (response) => {
      if (!/javascript/.test(response.headers()["content-type"] ?? "")) return;
      reads.push(
        response.body().then((body) => {
          scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
        }),
      );
    });
    const answer = await page.goto(url, { waitUntil: "networkidle" });
    await Promise.all(reads);
    const kilobytes = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0) / 1000;
    return { kilobytes, scripts, finalPath: new URL(page.url()).pathname, status: answer?.status() };
  } finally {
    await page.close();
  }
}
