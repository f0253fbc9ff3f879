/** Resident memory of the services, read from /proc, once or sampled over a soak. */
import { readFile } from "node:fs/promises";
import { type Sample, slopePerMinute } from "./stats.ts";

/** VmRSS of a process in MB (1 MB = 1024 kB, as /proc counts), from /proc/<pid>/status. */
export function rssFromStatus(status: string): number {
  const kB = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (kB === undefined) throw new Error("no VmRSS line (has the process exited?)");
  return Number(kB) / 1024;
}

export async function residentMb(pid: number): Promise<number> {
  return rssFromStatus(await readFile(`/proc/${pid}/status`, "utf8"));
}

export interface MemoryTrend {
  samples: Sample[];
  firstMb: number;
  lastMb: number;
  slopeMbPerMinute: number;
}

export function trendOf(samples: Sample[]): MemoryTrend {
  return {
    samples,
    firstMb: samples[0]?.value ?? Number.NaN,
    lastMb: samples.at(-1)?.value ?? Number.NaN,
    slopeMbPerMinute: slopePerMinute(samples),
  };
}

/**
 * Samples each process's memory every `intervalSeconds` until `work` settles (and once at its
 * end), and gives the trend of each.
 */
export async function sampleWhile<K extends string>(
  pids: Record<K, number>,
  intervalSeconds: number,
  work: Promise<unknown>,
): Promise<Record<K, MemoryTrend>> {
  const names = Object.keys(pids) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as Sample[]])) as Record<K, Sample[]>;
  const started = Date.now();
  const sample = async () => {
    const seconds = (Date.now() - started) / 1000;
    for (const name of names) samples[name].push({ seconds, value: await residentMb(pids[name]) });
  };
  await sample();
  let failure: unknown;
  const timer = setInterval(() => {
    sample().catch((error: unknown) => {
      failure ??= error;
    });
  }, intervalSeconds * 1000);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  if (failure) throw failure;
  await sample();
  return Object.fromEntries(names.map((name) => [name, trendOf(samples[name])])) as Record<K, MemoryTrend>;
}
