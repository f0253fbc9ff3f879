/**
 * Memory: the gateway's and the backend's resident memory after the measured runs, then its trend
 * over a soak of mixed traffic through the gateway (pages, API calls, a static asset, the health
 * probe), sampled at an interval: the least-squares slope and the first and last samples.
 */
import { API_PATHS } from "../../../shared/contract.ts";
import { runLoad } from "../load.ts";
import { residentMb, sampleWhile } from "../memory.ts";
import type { BenchOptions } from "../options.ts";
import type { ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { TARGETS } from "../targets.ts";

/** Fewer than the measured runs' connections: a soak is steady traffic, not a saturation test. */
const SOAK_CONNECTIONS = 10;

export async function memorySection(
  stack: BenchStack,
  account: BenchAccount,
  options: BenchOptions,
  assetPath: string,
): Promise<ReportSection> {
  const after = {
    gateway: await residentMb(stack.pids.gateway),
    backend: await residentMb(stack.pids.backend),
  };
  const paths = [
    "/home",
    API_PATHS.projects,
    "/settings",
    API_PATHS.subscription,
    "/subscriptions",
    assetPath,
    "/healthz",
  ];
  const soak = runLoad({
    url: stack.gatewayUrl,
    connections: SOAK_CONNECTIONS,
    duration: options.soakSeconds,
    headers: account.cookie,
    paths,
  });
  const trends = await sampleWhile(stack.pids, options.sampleSeconds, soak);
  const soaked = await soak;
  const mb = (value: number) => value.toFixed(0);
  return {
    title: "Memory",
    intro: `Resident memory (VmRSS) after the measured runs, then over ${options.soakSeconds / 60} minutes of mixed traffic through the gateway (${SOAK_CONNECTIONS} connections, each requesting ${paths.join(", ")} in turn; ${Math.round(soaked.rps)} req/s, ${soaked.failures} failed), sampled every ${options.sampleSeconds} s.`,
    tables: [
      {
        headers: ["service", "after the runs MB", "soak first MB", "soak last MB", "slope MB/min"],
        rows: (["gateway", "backend"] as const).map((name) => [
          name,
          mb(after[name]),
          mb(trends[name].firstMb),
          mb(trends[name].lastMb),
          trends[name].slopeMbPerMinute.toFixed(2),
        ]),
      },
    ],
    checks: [
      {
        figure: "gateway RSS after the runs",
        value: after.gateway,
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
