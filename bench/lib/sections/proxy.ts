/**
 * The gateway as a proxy: the same API call direct to the backend, through the gateway (with the
 * `auth_token` cookie) and through nginx (with the bearer), at full load and with one connection.
 * Without nginx installed its column is left out and its ratio is not measured.
 */
import { API_PATHS } from "../../../shared/contract/common.ts";
import { compare, FIGURES_HEADERS, figuresRow, type LoadRequest } from "../load.ts";
import { startNginx } from "../nginx.ts";
import type { BenchOptions } from "../options.ts";
import type { Check, ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { ratio } from "../stats.ts";
import { TARGETS } from "../targets.ts";

const PATH = API_PATHS.projects;

export async function proxySection(
  stack: BenchStack,
  account: BenchAccount,
  options: BenchOptions,
): Promise<ReportSection> {
  const nginx = await startNginx(stack.backendUrl);
  try {
    const scenarios = (connections: number) => {
      const at = (origin: string, headers: Record<string, string>): LoadRequest => ({
        url: `${origin}${PATH}`,
        connections,
        duration: options.duration,
        headers,
      });
      // nginx's figures are only read below when it started.
      return {
        direct: at(stack.backendUrl, account.bearer),
        gateway: at(stack.gatewayUrl, account.cookie),
        ...(nginx ? { nginx: at(nginx.url, account.bearer) } : {}),
      } as Record<"direct" | "gateway" | "nginx", LoadRequest>;
    };
    const full = (await compare(scenarios(options.connections), options)).medians;
    const low = (await compare(scenarios(1), options)).medians;
    const rows = (medians: typeof full, connections: number) =>
      Object.entries(medians).map(([name, figures]) =>
        figuresRow(`${name}, ${connections} connection${connections > 1 ? "s" : ""}`, figures),
      );
    const checks: Check[] = [
      {
        figure: "gateway / direct, throughput",
        value: ratio(full.gateway.rps, full.direct.rps),
        unit: "×",
        target: TARGETS.proxyVsDirect,
      },
      {
        figure: "gateway / nginx, throughput",
        value: nginx ? ratio(full.gateway.rps, full.nginx.rps) : Number.NaN,
        unit: "×",
        target: TARGETS.proxyVsNginx,
      },
      {
        figure: "p50 added by the gateway, 1 connection",
        value: low.gateway.p50 - low.direct.p50,
        unit: "ms",
        target: TARGETS.addedP50LowLoadMs,
      },
    ];
    const added = (name: "gateway" | "nginx") =>
      `${name} adds ${(full[name].p50 - full.direct.p50).toFixed(2)} ms at p50 and ${(full[name].p99 - full.direct.p99).toFixed(2)} ms at p99 with ${options.connections} connections, ${(low[name].p50 - low.direct.p50).toFixed(2)} ms at p50 with 1.`;
    return {
      title: "Proxy",
      intro: `\`GET ${PATH}\` (20 repositories) direct to the backend with a bearer token, through the gateway with the \`auth_token\` cookie, and through nginx with the bearer token${nginx ? "" : " (nginx is not installed here: left out)"}.`,
      tables: [{ headers: FIGURES_HEADERS, rows: [...rows(full, options.connections), ...rows(low, 1)] }],
      checks,
      notes: [added("gateway"), ...(nginx ? [added("nginx")] : [])],
    };
  } finally {
    await nginx?.stop();
  }
}
