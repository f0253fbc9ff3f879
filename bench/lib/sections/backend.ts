/** The backend alone: API calls with 20 repositories against its /healthz, direct with a bearer. */
import { API_PATHS } from "../../../shared/contract/common.ts";
import { compare, FIGURES_HEADERS, figuresRow } from "../load.ts";
import type { BenchOptions } from "../options.ts";
import type { ReportSection } from "../report.ts";
import type { BenchAccount } from "../seed.ts";
import type { BenchStack } from "../stack.ts";
import { ratio } from "../stats.ts";
import { TARGETS } from "../targets.ts";

const DATABASE_NAMES = { pglite: "PGlite", postgres: "Postgres" };

export async function backendSection(
  stack: BenchStack,
  account: BenchAccount,
  options: BenchOptions,
): Promise<ReportSection> {
  const call = (path: string) => ({
    url: `${stack.backendUrl}${path}`,
    connections: options.connections,
    duration: options.duration,
    headers: account.bearer,
  });
  const calls = {
    "GET /api/projects": call(API_PATHS.projects),
    "GET /api/subscription": call(API_PATHS.subscription),
    "GET /api/settings": call(API_PATHS.settings),
  };
  const { medians } = await compare({ "GET /healthz": call("/healthz"), ...calls }, options);
  const health = medians["GET /healthz"];
  const database = DATABASE_NAMES[stack.database];
  return {
    title: `Backend on ${database}`,
    intro: `Direct to the backend with a bearer token, ${options.connections} connections; the organisation has 20 repositories.`,
    tables: [
      {
        headers: FIGURES_HEADERS,
        rows: Object.entries(medians).map(([name, figures]) => figuresRow(name, figures)),
      },
    ],
    checks: Object.keys(calls).map((name) => ({
      figure: `${name} / GET /healthz (${database})`,
      value: ratio(medians[name as keyof typeof calls].rps, health.rps),
      unit: "×" as const,
      target: stack.database === "postgres" ? TARGETS.apiVsHealthPostgres : TARGETS.apiVsHealthPglite,
    })),
  };
}
