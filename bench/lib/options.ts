/**
 * How long and how often `npm run bench` measures. With the defaults the whole run takes about 21
 * minutes; --quick is for working on the bench itself (its figures mean nothing).
 *   --duration <s>  seconds per measured run (default 5)
 *   --runs <n>      runs per figure, the median reported (default 3)
 *   --soak <s>      seconds of the memory soak (default 300)
 *   --soak-warmup <s>  seconds of soak traffic before the soak is measured (default 360)
 *   --quick         1 run of 1 s per figure, a 30 s soak after 10 s, README left alone
 *   --only <names>  only these sections, comma-separated (backend, postgres, proxy, rendering,
 *                   weight, memory, lighthouse), README left alone: to measure one lever
 */
import { parseArgs } from "node:util";

export const SECTION_NAMES = [
  "backend",
  "postgres",
  "proxy",
  "rendering",
  "weight",
  "memory",
  "lighthouse",
] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

export interface BenchOptions {
  /** Seconds per measured run. */
  duration: number;
  runs: number;
  /** Seconds of load before the runs of a comparison, per scenario. */
  warmup: number;
  connections: number;
  soakSeconds: number;
  /**
   * Unmeasured soak traffic first, so that the trend is not the heaps' growth to this mix: after its
   * idle compaction the gateway grew back for five to six minutes of this traffic, then held level
   * (docs/performance.md, ninth and tenth rounds).
   */
  soakWarmupSeconds: number;
  sampleSeconds: number;
  /** The sections to run; every one when undefined. */
  only: ReadonlySet<SectionName> | undefined;
  /** Quick and partial runs are for working on the bench: their figures do not go into the README. */
  writeReadme: boolean;
}

export function parseOptions(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      duration: { type: "string" },
      runs: { type: "string" },
      soak: { type: "string" },
      "soak-warmup": { type: "string" },
      quick: { type: "boolean", default: false },
      only: { type: "string" },
    },
  });
  const quick = values.quick;
  const positive = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const number = Number(value);
    if (!(number > 0)) throw new Error(`--${name} must be a positive number, not ${value}`);
    return number;
  };
  return {
    duration: positive("duration", values.duration, quick ? 1 : 5),
    runs: Math.round(positive("runs", values.runs, quick ? 1 : 3)),
    warmup: quick ? 1 : 2,
    connections: 50,
    soakSeconds: positive("soak", values.soak, quick ? 30 : 300),
    soakWarmupSeconds: positive("soak-warmup", values["soak-warmup"], quick ? 10 : 360),
    sampleSeconds: quick ? 5 : 10,
    only: values.only === undefined ? undefined : sectionsOf(values.only),
    writeReadme: !quick && values.only === undefined,
  };
}

function sectionsOf(list: string): ReadonlySet<SectionName> {
  const names = list.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(SECTION_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`--only takes sections among ${SECTION_NAMES.join(", ")}, not ${unknown.join(", ")}`);
  return new Set(names as SectionName[]);
}
