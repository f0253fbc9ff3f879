/**
 * The JavaScript a page's first load fetches in Chromium, until the network is idle: what the HTML
 * names, what those modules import, and whatever the page starts loading by itself after hydration
 * (lazy chunks, route prefetches). The static count of scripts/lib/page-weight.ts sees only the
 * first two; a visitor pays for all three.
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { SESSION_COOKIE_NAME } from "../../shared/constants.ts";

export interface FirstLoad {
  /** Gzip -9 of every script fetched, in kB (1000 bytes), as the page-weight test counts. */
  kilobytes: number;
  files: number;
}

export async function firstLoadInChromium(browser: Browser, url: string, token?: string): Promise<FirstLoad> {
  const context = await browser.newContext();
  try {
    if (token) {
      const { hostname } = new URL(url);
      await context.addCookies([{ name: SESSION_COOKIE_NAME, value: token, domain: hostname, path: "/" }]);
    }
    const page = await context.newPage();
    const sizes = new Map<string, Promise<number>>();
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script" || sizes.has(response.url())) return;
      sizes.set(
        response.url(),
        response.body().then((body) => gzipSync(body, { level: 9 }).length),
      );
    });
    const answer = await page.goto(url, { waitUntil: "networkidle" });
    if (answer?.status() !== 200) throw new Error(`${url} answered ${answer?.status()}`);
    const bytes = await Promise.all(sizes.values());
    return { kilobytes: bytes.reduce((sum, size) => sum + size, 0) / 1000, files: bytes.length };
  } finally {
    await context.close();
  }
}
