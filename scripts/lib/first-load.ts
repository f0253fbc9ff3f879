/**
 * The JavaScript a page's first load fetches in Chromium, until the network is idle: what the HTML
 * names, what those modules import, and whatever the page starts loading by itself after hydration
 * (lazy chunks, route prefetches). The static count of ./page-weight.ts sees only the first two; a
 * visitor pays for all three. Each body is gzipped at level 9, as the static count does
 * (docs/decisions/046-first-load-in-chromium.md); what the files took on the wire is counted beside
 * it (the gateway sends Brotli made at build time, docs/decisions/054-precompressed-assets.md). The
 * browser test and the bench both weigh pages with it.
 */
import { gzipSync } from "node:zlib";
import type { BrowserContext } from "playwright-core";

export interface FirstLoad {
  /** Gzip -9 of every script fetched, in kB (1 kB = 1000 bytes). */
  kilobytes: number;
  /** What the scripts took on the wire, in the encoding the gateway chose (Brotli for Chromium). */
  sentKilobytes: number;
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
    const sent = new Map<string, number>();
    page.on("response", (response) => {
      if (!/javascript/.test(response.headers()["content-type"] ?? "")) return;
      const path = new URL(response.url()).pathname;
      reads.push(
        response.body().then((body) => {
          scripts.set(path, gzipSync(body, { level: 9 }).length);
        }),
        response
          .request()
          .sizes()
          .then((sizes) => {
            sent.set(path, sizes.responseBodySize);
          }),
      );
    });
    const answer = await page.goto(url, { waitUntil: "networkidle" });
    await Promise.all(reads);
    const kilobytesOf = (sizes: Map<string, number>) =>
      [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0) / 1000;
    return {
      kilobytes: kilobytesOf(scripts),
      sentKilobytes: kilobytesOf(sent),
      scripts,
      finalPath: new URL(page.url()).pathname,
      status: answer?.status(),
    };
  } finally {
    await page.close();
  }
}
