/**
 * Memory: the gateway's and the backend's resident memory after the measured runs, right away and
 * once they have been idle for a few seconds, then its trend over a soak of mixed traffic through
 * the gateway (pages, API calls, a static asset, the health probe), sampled at an interval: the
 * least-squares slope and the first and last samples.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { runLoad } from "../load.ts";
import { residentMb, sampleWhile } from "../memory.ts";
import type { BenchOptions } from "../options.ts";
import type { ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { TARGETS } from "../targets.ts";

/** Fewer than the measured runs' connections: a soak is steady traffic, not a saturation test. */
const SOAK_CONNECTIONS = 10;
/**
 * Right after the runs V8's heap is at its peak and mostly garbage; a few idle seconds later its
 * memory reducer has collected it (about 8 s after the last full collection). The settled figure is
 * what a self-hoster pays for between bursts, so that is the one held to the target; both are shown.
 */
export const SETTLE_SECONDS = 15;

export async function memorySection(
  stack: BenchStack,
  account: BenchAccount,
  options: BenchOptions,
  assetPath: string,
): Promise<ReportSection> {
  const sampleBoth = async () => ({
    gateway: await residentMb(stack.pids.gateway),
    backend: await residentMb(stack.pids.backend),
  });
  const after = await sampleBoth();
  await sleep(SETTLE_SECONDS * 1000);
  const settled = await sampleBoth();
  const paths = [
    "/home",
    API_PATHS.projects,
    "/settings",
    API_PATHS.subscription,
    "/subscriptions",
    assetPath,
    "/healthz",
  ];
  const soakLoad = { url: stack.gatewayUrl, connections: SOAK_CONNECTIONS, headers: account.cookie, paths };
  await runLoad({ ...soakLoad, duration: options.soakWarmupSeconds });
  const soak = runLoad({ ...soakLoad, duration: options.soakSeconds });
  const trends = await sampleWhile(stack.pids, options.sampleSeconds, soak);
  const soaked = await soak;
  const mb = (value: number) => value.toFixed(0);
  return {
    title: "Memory",
    intro: `Resident memory (VmRSS) after the measured runs (right away, and after ${SETTLE_SECONDS} s idle), then, after ${options.soakWarmupSeconds} s of the same traffic unmeasured, over ${options.soakSeconds / 60} minutes of mixed traffic through the gateway (${SOAK_CONNECTIONS} connections, each requesting ${paths.join(", ")} in turn; ${Math.round(soaked.rps)} req/s, ${soaked.failures} failed), sampled every ${options.sampleSeconds} s.`,
    tables: [
      {
        headers: [
          "service",
          "right after the runs MB",
          `after ${SETTLE_SECONDS} s idle MB`,
          "soak first MB",
          "soak last MB",
          "slope MB/min",
        ],
        rows: (["gateway", "backend"] as const).map((name) => [
          name,
          mb(after[name]),
          mb(settled[name]),
          mb(trends[name].firstMb),
          mb(trends[name].lastMb),
          trends[name].slopeMbPerMinute.toFixed(2),
        ]),
      },
    ],
    checks: [
      {
        figure: `gateway RSS after the runs and ${SETTLE_SECONDS} s idle`,
        value: settled.gateway,
        unit: "MB",
        target: TARGETS.gatewayRssMb,
      },
      {
        figure: "gateway RSS trend over the soak",
        value: trends.gateway.slopeMbPerMinute,
        unit: "MB/min",
        target: TARGETS.soakSlopeMbPerMinute,
      },
      {
        figure: "backend RSS trend over the soak",
        value: trends.backend.slopeMbPerMinute,
        unit: "MB/min",
        target: TARGETS.soakSlopeMbPerMinute,
      },
    ],
  };
}
