/**
 * Server rendering: each page against the same bytes served as a static file by the same gateway.
 * Each page's HTML is captured once and written into the build's assets folder, which the gateway
 * serves statically, for the length of the comparison. Both sides ask for gzip, as browsers do.
 */
import { randomBytes } from "node:crypto";
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { CLIENT_DIR } from "../../../scripts/lib/page-weight.ts";
import { compare, FIGURES_HEADERS, figuresRow, type LoadRequest } from "../load.ts";
import type { BenchOptions } from "../options.ts";
import type { ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { ratio } from "../stats.ts";
import { TARGETS } from "../targets.ts";

/** Pages every visitor without a session gets the same bytes of. */
const GUEST_PAGES = ["/login", "/signup", "/forgot-password", "/reset-password", "/email-verified"] as const;
export const RENDERED_PAGES = [...GUEST_PAGES, "/home", "/settings", "/subscriptions"] as const;
export type RenderedPage = (typeof RENDERED_PAGES)[number];
const isGuestPage = (page: RenderedPage) => (GUEST_PAGES as readonly string[]).includes(page);
const ASSETS_DIR = path.join(CLIENT_DIR, "assets");
/** The captured pages' file names in the assets folder: `bench-<tag>-<page>.html`. */
const STATIC_FILE = /^bench-[0-9a-f]{8}-[\w-]+\.html$/;

export interface RenderingResult {
  section: ReportSection;
  /** Each page's HTML as rendered (its stylesheets count in the page weight). */
  html: Record<RenderedPage, string>;
}

async function capture(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers, redirect: "manual" });
  if (response.status !== 200) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  return response.text();
}

export async function renderingSection(
  stack: BenchStack,
  account: BenchAccount,
  options: BenchOptions,
): Promise<RenderingResult> {
  // What an interrupted run left behind.
  for (const file of await readdir(ASSETS_DIR)) {
    if (STATIC_FILE.test(file)) await rm(path.join(ASSETS_DIR, file), { force: true });
  }
  const tag = randomBytes(4).toString("hex");
  const html = {} as Record<RenderedPage, string>;
  const staticFiles: string[] = [];
  const scenarios: Record<string, LoadRequest> = {};
  try {
    for (const page of RENDERED_PAGES) {
      const headers = isGuestPage(page) ? {} : account.cookie;
      html[page] = await capture(`${stack.gatewayUrl}${page}`, headers);
      const file = `bench-${tag}${page.replaceAll("/", "-")}.html`;
      await writeFile(path.join(ASSETS_DIR, file), html[page]);
      staticFiles.push(file);
      const request = (url: string): LoadRequest => ({
        url,
        connections: options.connections,
        duration: options.duration,
        headers: { ...headers, "accept-encoding": "gzip" },
      });
      scenarios[page] = request(`${stack.gatewayUrl}${page}`);
      scenarios[`${page} as a static file`] = request(`${stack.gatewayUrl}/assets/${file}`);
    }
    const { medians } = await compare(scenarios, options);
    const figuresOf = (name: string) => medians[name] ?? { rps: Number.NaN, p50: 0, p99: 0, failures: 0 };
    return {
      html,
      section: {
        title: "Server rendering",
        intro: `Each page rendered by the gateway (signed in with the cookie, but the guest pages: /login, /signup, /forgot-password, /reset-password, /email-verified) against the same HTML served as a static file by the same gateway, ${options.connections} connections, gzip.`,
        tables: [
          {
            headers: FIGURES_HEADERS,
            rows: Object.keys(scenarios).map((name) => figuresRow(name, figuresOf(name))),
          },
        ],
        checks: RENDERED_PAGES.map((page) => ({
          figure: `${page} / static`,
          value: ratio(figuresOf(page).rps, figuresOf(`${page} as a static file`).rps),
          unit: "×" as const,
          target: isGuestPage(page) ? TARGETS.guestVsStatic : TARGETS.signedInVsStatic,
        })),
      },
    };
  } finally {
    for (const file of staticFiles) await rm(path.join(ASSETS_DIR, file), { force: true });
  }
}
