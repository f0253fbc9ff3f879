/**
 * `npm run bench`: the product's performance benchmark, on the stack `npm start` brings up, in
 * production mode with the production build. Every throughput figure is a ratio to a reference
 * measured side by side in the same run, each the median of 3 runs by autocannon in a process of
 * its own (docs/decisions/023-benchmarks.md). Prints the report and writes it into
 * bench/README.md. Options: bench/lib/options.ts (--quick, --duration, --runs, --soak, --soak-warmup, --only).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ensureBuild } from "../scripts/lib/build.ts";
import { readClientBuild } from "../scripts/lib/page-weight.ts";
import { commit, machine } from "./lib/machine.ts";
import { type BenchOptions, parseOptions, type SectionName } from "./lib/options.ts";
import { type ReportSection, renderReport, replaceGenerated } from "./lib/report.ts";
import { backendSection } from "./lib/sections/backend.ts";
import { lighthouseSection } from "./lib/sections/lighthouse.ts";
import { memorySection } from "./lib/sections/memory.ts";
import { proxySection } from "./lib/sections/proxy.ts";
import { renderingSection } from "./lib/sections/rendering.ts";
import { weightSection } from "./lib/sections/weight.ts";
import { type BenchAccount, seedAccount } from "./lib/seed.ts";
import { type BenchStack, type DatabaseKind, POSTGRES_SERVER_URL, startBenchStack } from "./lib/stack.ts";

const README = path.join(import.meta.dirname, "README.md");

const options = parseOptions(process.argv.slice(2));
const started = Date.now();
const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** The running stack's stop, for Ctrl-C: its services run in process groups of their own. */
let stopOnInterrupt: (() => Promise<void>) | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await stopOnInterrupt?.();
    process.exit(130);
  });
}

/** Starts a stack with a seeded account, runs `work` on it and stops it, whatever happens. */
async function onStack<T>(
  database: DatabaseKind,
  work: (stack: BenchStack, account: BenchAccount) => Promise<T>,
): Promise<T> {
  log(`starting the stack on ${database}`);
  // The fake Azure DevOps the seeded repositories come from is plain http.
  const stack = await startBenchStack(database, {
    AZURE_DEVOPS_ALLOW_HTTP: "true",
    AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true",
  });
  stopOnInterrupt = stack.stop;
  try {
    const account = await seedAccount(stack);
    try {
      return await work(stack, account);
    } finally {
      await account.azureDevOps.close();
    }
  } finally {
    stopOnInterrupt = undefined;
    await stack.stop();
  }
}

async function measure(settings: BenchOptions): Promise<ReportSection[]> {
  const wanted = (name: SectionName) => settings.only?.has(name) ?? true;
  const onPglite = (["backend", "proxy", "rendering", "weight", "memory", "lighthouse"] as const).some(
    wanted,
  );
  const sections: ReportSection[] = !onPglite
    ? []
    : await onStack("pglite", async (stack, account) => {
        const measured: ReportSection[] = [];
        if (wanted("backend")) {
          log("backend on PGlite");
          measured.push(await backendSection(stack, account, settings));
        }
        if (wanted("proxy")) {
          log("proxy");
          measured.push(await proxySection(stack, account, settings));
        }
        // The first-load weights are read from the pages the rendering section captured.
        if (wanted("rendering") || wanted("weight")) {
          log("server rendering");
          const rendering = await renderingSection(stack, account, settings);
          if (wanted("rendering")) measured.push(rendering.section);
          if (wanted("weight")) {
            log("first-load JavaScript in Chromium");
            measured.push(await weightSection(rendering.html, stack, account));
          }
        }
        if (wanted("memory")) {
          log(`memory, with a ${settings.soakSeconds} s soak after ${settings.soakWarmupSeconds} s`);
          measured.push(await memorySection(stack, account, settings, readClientBuild().assets.entry.module));
        }
        if (wanted("lighthouse")) {
          log("Lighthouse");
          measured.push(await lighthouseSection(stack, account, settings));
        }
        return measured;
      });
  if (POSTGRES_SERVER_URL && wanted("postgres")) {
    const postgres = await onStack("postgres", async (stack, account) => {
      log("backend on Postgres");
      return backendSection(stack, account, settings);
    });
    sections.splice(wanted("backend") ? 1 : 0, 0, postgres);
  }
  return sections;
}

ensureBuild(log);
const info = machine();
const sections = await measure(options);
const report = renderReport({
  date: new Date().toISOString().slice(0, 10),
  commit: commit(),
  machine: info,
  method: [
    `The stack \`npm start\` brings up (the Firebase Auth emulator, the backend and the gateway, each its own process; production mode, the production build), on loopback, with an account whose organisation has 20 repositories (the sandbox's and a local Azure DevOps stand-in's). autocannon runs in a process of its own, one forked for each comparison. Every comparison warms each scenario up for ${options.warmup} s, then runs the scenarios in turn, ${options.runs} rounds of ${options.duration} s each at ${options.connections} connections unless said otherwise; each figure is the median of its runs. The targets are ratios of figures taken side by side, never absolute figures, because the machine is shared.`,
    POSTGRES_SERVER_URL
      ? "The backend runs once on PGlite (everything) and once on a fresh database of its own on the Postgres server (the backend comparison), dropped afterwards."
      : "Postgres was not measured: set TEST_DATABASE_URL or DATABASE_URL to a Postgres server to add it.",
  ],
  sections,
  notes: [
    "The machine is shared with other people's work: absolute figures vary from run to run by tens of percent; the ratios much less, but still visibly. Compare runs of this benchmark with each other, never with a capacity plan.",
    `The whole benchmark took ${((Date.now() - started) / 60_000).toFixed(1)} minutes.`,
  ],
});
console.log(`\n${report}`);
if (options.writeReadme) {
  await writeFile(README, replaceGenerated(await readFile(README, "utf8"), report));
  log("bench/README.md rewritten");
}
