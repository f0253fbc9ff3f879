/**
 * The load generator, in a process of its own so that its work never counts against the server
 * measured (docs/decisions/023-benchmarks.md): a forked load-child.ts drives autocannon, one run at
 * a time, and answers each with its result.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import type autocannon from "autocannon";
import { median } from "./stats.ts";

const CHILD = path.join(import.meta.dirname, "load-child.ts");

export interface LoadRequest {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  headers?: Record<string, string>;
  /** Paths each connection requests in turn (mixed traffic); `url`'s path otherwise. */
  paths?: string[];
}

/** One run's figures: answered requests per second and latency percentiles in ms. */
export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Failed connections, timeouts and answers outside 2xx: any makes the run suspect. */
  failures: number;
}

/** What load-child.ts answers. */
export interface LoadAnswer {
  result?: autocannon.Result;
  /** Percentiles of the 2xx answers' times, to the microsecond. */
  latency?: { p50: number; p99: number };
  error?: string;
}

export function figuresOf(result: autocannon.Result, latency: { p50: number; p99: number }): LoadFigures {
  return {
    rps: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50: latency.p50,
    p99: latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** The median of each figure over several runs (failures are summed). */
export function medianFigures(runs: readonly LoadFigures[]): LoadFigures {
  return {
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

export interface LoadGenerator {
  run(request: LoadRequest): Promise<LoadFigures>;
  close(): Promise<void>;
}

/** A forked load-child.ts that takes runs one at a time. */
export function startLoadGenerator(): LoadGenerator {
  const child = fork(CHILD, [], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const exited = once(child, "exit");
  return {
    async run(request) {
      const options: autocannon.Options = {
        url: request.url,
        connections: request.connections,
        duration: request.duration,
        headers: request.headers,
        ...(request.paths ? { requests: request.paths.map((p) => ({ method: "GET", path: p })) } : {}),
      };
      const answer = once(child, "message") as Promise<[LoadAnswer]>;
      child.send(options);
      const [message] = await Promise.race([
        answer,
        exited.then(([code]) => {
          throw new Error(`the load generator exited with code ${code}`);
        }),
      ]);
      if (!message.result || !message.latency) throw new Error(`the load generator failed: ${message.error}`);
      return figuresOf(message.result, message.latency);
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.disconnect();
        await exited;
      }
    },
  };
}

/** One run by a load generator of its own. */
export async function runLoad(request: LoadRequest): Promise<LoadFigures> {
  const generator = startLoadGenerator();
  try {
    return await generator.run(request);
  } finally {
    await generator.close();
  }
}

export interface Comparison<K extends string> {
  /** The median of each scenario's runs. */
  medians: Record<K, LoadFigures>;
  runs: Record<K, LoadFigures[]>;
}

/**
 * Measures scenarios side by side: each is warmed up, then they take turns, one run each per
 * round, so that whatever else the machine does weighs on all of them alike.
 */
export async function compare<K extends string>(
  scenarios: Record<K, LoadRequest>,
  settings: { runs: number; warmup: number },
): Promise<Comparison<K>> {
  const names = Object.keys(scenarios) as K[];
  const runs = Object.fromEntries(names.map((name) => [name, [] as LoadFigures[]])) as Record<
    K,
    LoadFigures[]
  >;
  const generator = startLoadGenerator();
  try {
    for (const name of names) await generator.run({ ...scenarios[name], duration: settings.warmup });
    for (let round = 0; round < settings.runs; round += 1) {
      for (const name of names) runs[name].push(await generator.run(scenarios[name]));
    }
  } finally {
    await generator.close();
  }
  const medians = Object.fromEntries(names.map((name) => [name, medianFigures(runs[name])])) as Record<
    K,
    LoadFigures
  >;
  return { medians, runs };
}

/** A scenario's row in a report table: throughput and latency, failures when there were any. */
export function figuresRow(name: string, figures: LoadFigures): string[] {
  return [
    name,
    Math.round(figures.rps).toString(),
    figures.p50.toFixed(2),
    figures.p99.toFixed(2),
    figures.failures.toString(),
  ];
}

export const FIGURES_HEADERS = ["scenario", "req/s", "p50 ms", "p99 ms", "failed"];
