/**
 * `npm run bench:org`: whether a page costs the same for a large organisation as for a small one
 * (docs/decisions/038-server-side-paging.md). Seeds a small organisation (10 repositories, 20
 * contributors, 50 review runs) and a large one (1,000 repositories, 5,000 contributors with 800
 * seats, 20,000 runs) through the backend's own data layer, starts the stack `npm start` brings up
 * on that database, and measures both side by side in one run: server time and bytes of /home,
 * /subscriptions and /reviews and of their API calls, throughput at 20 connections, time to
 * interactive and DOM nodes of /home in Chromium, and the services' memory after the large runs
 * (right away and settled, as the general bench's memory section reads it).
 * Prints the report; exits non-zero when a target is missed. Options: bench/lib/options.ts
 * (--quick, --duration, --runs), and --postgres to run on a Postgres server (TEST_DATABASE_URL or
 * DATABASE_URL) instead of PGlite.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ensureBuild } from "../scripts/lib/build.ts";
import type { RunningStack } from "../scripts/lib/stack.ts";
import { SESSION_COOKIE_NAME } from "../shared/constants.ts";
import { API_PATHS } from "../shared/contract/common.ts";
import { HOME_PAGE_SIZE, pageQueryString, REVIEWS_PAGE_SIZE } from "../shared/contract/paging.ts";
import { launchBrowser, waitForHydration } from "../tests/e2e/browser.ts";
import { compare, FIGURES_HEADERS, figuresRow, type LoadRequest } from "./lib/load.ts";
import { commit, machine } from "./lib/machine.ts";
import { residentMb } from "./lib/memory.ts";
import { parseOptions } from "./lib/options.ts";
import { LARGE_ORG, type OrgSize, SMALL_ORG } from "./lib/org-seed.ts";
import { startSeededStack } from "./lib/org-stack.ts";
import { type Check, type ReportSection, renderReport } from "./lib/report.ts";
import { SETTLE_SECONDS } from "./lib/sections/memory.ts";
import { median, ratio } from "./lib/stats.ts";
import { atLeast, atMost, below, verdict } from "./lib/targets.ts";

const args = process.argv.slice(2);
const onPostgres = args.includes("--postgres");
const options = parseOptions(args.filter((arg) => arg !== "--postgres"));
const CONNECTIONS = 20;
/** Sequential requests per figure of server time; the median is reported. */
const TIMED_REQUESTS = 15;
const BROWSER_LOADS = 3;
const ORGS = { small: SMALL_ORG, large: LARGE_ORG } satisfies Record<string, OrgSize>;
type OrgName = keyof typeof ORGS;
const NAMES: OrgName[] = ["small", "large"];

const PAGES = ["/home", "/subscriptions", "/reviews"] as const;
/** The calls behind the pages, at the page sizes they ask for. */
const API_CALLS = {
  projects: `${API_PATHS.projects}${pageQueryString({ pageSize: HOME_PAGE_SIZE }, { integrationType: "git", integrationName: "github" })}`,
  contributors: `${API_PATHS.contributors}${pageQueryString({ pageSize: 10 })}`,
  reviews: `${API_PATHS.reviews}${pageQueryString({ pageSize: REVIEWS_PAGE_SIZE })}`,
} as const;

export const ORG_TARGETS = {
  pageTime: atMost(1.5, "≤ 1.5×"),
  pageBytes: atMost(2, "≤ 2×"),
  pageThroughput: atLeast(0.7, "≥ 0.70×"),
  apiItems: atMost(100, "≤ 100"),
  apiTime: atMost(1.5, "≤ 1.5×"),
  interactiveMs: atMost(1500, "≤ 1500 ms"),
  domNodes: below(3000, "< 3000"),
  gatewayRssMb: atMost(250, "≤ 250 MB"),
  backendRssMb: atMost(350, "≤ 350 MB"),
} as const;

const started = Date.now();
const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** Median time to the last byte and the bytes of `url`, asked like a browser (gzip). */
async function timed(url: string, cookie: string): Promise<{ ms: number; bytes: number; body: string }> {
  const times: number[] = [];
  let body = "";
  for (let i = 0; i < TIMED_REQUESTS; i += 1) {
    const start = performance.now();
    const response = await fetch(url, { headers: { cookie, "accept-encoding": "gzip" }, redirect: "manual" });
    body = await response.text();
    times.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  }
  return { ms: median(times), bytes: Buffer.byteLength(body), body };
}

async function browserFigures(stack: RunningStack, tokens: Record<OrgName, string>) {
  const browser = await launchBrowser();
  try {
    const figures = {} as Record<OrgName, { interactiveMs: number; domNodes: number }>;
    for (const name of NAMES) {
      const context = await browser.newContext();
      const { hostname } = new URL(stack.gatewayUrl);
      await context.addCookies([
        { name: SESSION_COOKIE_NAME, value: tokens[name], domain: hostname, path: "/" },
      ]);
      const page = await context.newPage();
      const times: number[] = [];
      const nodes: number[] = [];
      for (let i = 0; i < BROWSER_LOADS; i += 1) {
        await page.goto(`${stack.gatewayUrl}/home`, { waitUntil: "commit" });
        await waitForHydration(page);
        await page.locator('[aria-labelledby="repositories"] article').first().waitFor();
        // Interactive: hydrated, with the repositories in; counted from the navigation's start.
        times.push(await page.evaluate(() => performance.now()));
        nodes.push(await page.evaluate(() => document.getElementsByTagName("*").length));
      }
      figures[name] = { interactiveMs: median(times), domNodes: median(nodes) };
      await context.close();
    }
    return figures;
  } finally {
    await browser.close();
  }
}

async function measure(stack: RunningStack, tokens: Record<OrgName, string>): Promise<ReportSection[]> {
  const cookieOf = (name: OrgName) => `${SESSION_COOKIE_NAME}=${tokens[name]}`;
  const rows: string[][] = [];
  const checks: Check[] = [];
  type Timed = Record<OrgName, { ms: number; bytes: number; body: string }>;
  const timeOf = new Map<string, Timed>();
  const timesOf = (target: string) => timeOf.get(target) as Timed;

  log("server time and bytes");
  for (const target of [...PAGES, ...Object.values(API_CALLS)]) {
    const small = await timed(`${stack.gatewayUrl}${target}`, cookieOf("small"));
    const large = await timed(`${stack.gatewayUrl}${target}`, cookieOf("large"));
    timeOf.set(target, { small, large });
    rows.push([
      target,
      small.ms.toFixed(1),
      large.ms.toFixed(1),
      ratio(large.ms, small.ms).toFixed(2),
      String(small.bytes),
      String(large.bytes),
      ratio(large.bytes, small.bytes).toFixed(2),
    ]);
  }
  for (const page of PAGES) {
    const { small, large } = timesOf(page);
    checks.push(
      {
        figure: `${page} server time large / small`,
        value: ratio(large.ms, small.ms),
        unit: "×",
        target: ORG_TARGETS.pageTime,
      },
      {
        figure: `${page} bytes large / small`,
        value: ratio(large.bytes, small.bytes),
        unit: "×",
        target: ORG_TARGETS.pageBytes,
      },
    );
  }
  for (const [call, pathWithQuery] of Object.entries(API_CALLS)) {
    const { small, large } = timesOf(pathWithQuery);
    const items = Math.max(
      ...[small, large].map(({ body }) => {
        const { data } = JSON.parse(body) as { data: unknown[] | { projects: unknown[] } };
        return Array.isArray(data) ? data.length : data.projects.length;
      }),
    );
    checks.push(
      { figure: `${call} call: items in an answer`, value: items, unit: "", target: ORG_TARGETS.apiItems },
      {
        figure: `${call} call time large / small`,
        value: ratio(large.ms, small.ms),
        unit: "×",
        target: ORG_TARGETS.apiTime,
      },
    );
  }

  log(`throughput at ${CONNECTIONS} connections`);
  const scenarios: Record<string, LoadRequest> = {};
  for (const page of PAGES) {
    for (const name of NAMES) {
      scenarios[`${name} ${page}`] = {
        url: `${stack.gatewayUrl}${page}`,
        connections: CONNECTIONS,
        duration: options.duration,
        headers: { cookie: cookieOf(name), "accept-encoding": "gzip" },
      };
    }
  }
  const { medians } = await compare(scenarios, options);
  for (const page of PAGES) {
    const small = medians[`small ${page}`]?.rps ?? Number.NaN;
    const large = medians[`large ${page}`]?.rps ?? Number.NaN;
    checks.push({
      figure: `${page} throughput large / small`,
      value: ratio(large, small),
      unit: "×",
      target: ORG_TARGETS.pageThroughput,
    });
  }

  log("Chromium");
  const browser = await browserFigures(stack, tokens);
  checks.push(
    {
      figure: "large /home interactive",
      value: browser.large.interactiveMs,
      unit: "ms",
      target: ORG_TARGETS.interactiveMs,
    },
    {
      figure: "large /home DOM nodes",
      value: browser.large.domNodes,
      unit: "",
      target: ORG_TARGETS.domNodes,
    },
  );

  // Both figures, as the general bench's memory section takes them; the settled one is held to
  // the target (bench/lib/sections/memory.ts says why).
  const readRss = async () => ({
    gateway: await residentMb(stack.pids.gateway),
    backend: await residentMb(stack.pids.backend),
  });
  const rssRightAfter = await readRss();
  await sleep(SETTLE_SECONDS * 1000);
  const rss = await readRss();
  checks.push(
    {
      figure: `gateway RSS after the large runs and ${SETTLE_SECONDS} s idle`,
      value: rss.gateway,
      unit: "MB",
      target: ORG_TARGETS.gatewayRssMb,
    },
    {
      figure: `backend RSS after the large runs and ${SETTLE_SECONDS} s idle`,
      value: rss.backend,
      unit: "MB",
      target: ORG_TARGETS.backendRssMb,
    },
  );

  return [
    {
      title: "Small and large organisation",
      intro: `Server time: the median of ${TIMED_REQUESTS} requests in a row, to the last byte, through the gateway, signed in, gzip asked for. Bytes: the answer as parsed (decompressed). Throughput: ${CONNECTIONS} connections, ${options.runs} run(s) of ${options.duration} s each, the median.`,
      tables: [
        {
          headers: [
            "page or call",
            "small ms",
            "large ms",
            "large / small",
            "small bytes",
            "large bytes",
            "large / small",
          ],
          rows,
        },
        {
          headers: FIGURES_HEADERS,
          rows: Object.keys(scenarios).map((name) => figuresRow(name, medians[name] as never)),
        },
        {
          headers: ["organisation", "/home interactive ms", "DOM nodes"],
          rows: NAMES.map((name) => [
            name,
            browser[name].interactiveMs.toFixed(0),
            String(browser[name].domNodes),
          ]),
        },
        {
          headers: ["service", "RSS MB right after the large runs", `after ${SETTLE_SECONDS} s idle`],
          rows: (["gateway", "backend"] as const).map((name) => [
            name,
            rssRightAfter[name].toFixed(0),
            rss[name].toFixed(0),
          ]),
        },
      ],
      checks,
    },
  ];
}

async function main(): Promise<number> {
  ensureBuild(log);
  const seeded = await startSeededStack(ORGS, { postgres: onPostgres, log });
  try {
    const sections = await measure(seeded.stack, seeded.tokens);
    const report = renderReport({
      date: new Date().toISOString().slice(0, 10),
      commit: commit(),
      machine: machine(),
      method: [
        `The stack \`npm start\` brings up on ${onPostgres ? "a Postgres database of its own" : "PGlite"}, with two organisations seeded through the backend's data layer: small (${describe(SMALL_ORG)}) and large (${describe(LARGE_ORG)}). Every target is a ratio of the two taken in the same run, or an absolute bound.`,
      ],
      sections,
      notes: [`The whole benchmark took ${((Date.now() - started) / 60_000).toFixed(1)} minutes.`],
    });
    console.log(
      `\n${report.replace("## Performance (`npm run bench`)", "## Large organisations (`npm run bench:org`)")}`,
    );
    const missed = sections
      .flatMap((section) => section.checks)
      .filter((check) => verdict(check.value, check.target) !== "pass");
    return missed.length === 0 ? 0 : 1;
  } finally {
    await seeded.stop();
  }
}

const describe = (size: OrgSize) =>
  `${size.repositories} repositories, ${size.contributors} contributors of whom ${size.seats} hold seats, ${size.runs} review runs`;

process.exitCode = await main();
