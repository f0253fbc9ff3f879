/**
 * Review quality benchmark: the whole review pipeline over the corpus, twice per case, then the
 * metrics as a table and bench/review-quality/RESULTS.md rewritten.
 *   npm run bench:quality   (the built-in reviewer alone; ARGUS_QUALITY_MODEL_* for a model, see
 *                            model.ts; QUALITY_CASES=ts-01-user-search-sql,go-05-slack-token for some)
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runQualityBench } from "./bench.ts";
import { loadCorpus } from "./corpus.ts";
import { computeMetrics } from "./metrics.ts";
import { describeReviewer, qualityModelFromEnv } from "./model.ts";
import { metricRows, resultsMarkdown } from "./report.ts";

const RESULTS = path.join(import.meta.dirname, "RESULTS.md");

function commit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain") ? " (with uncommitted changes)" : ""}`;
  } catch {
    return "unknown (not a git checkout)";
  }
}

const model = qualityModelFromEnv();
const only = process.env.QUALITY_CASES?.split(",").map((id) => id.trim());
const cases = await loadCorpus(only ? { only } : {});
const reviewer = describeReviewer(model);
console.log(`Reviewing ${cases.length} pull requests twice with the ${reviewer}…`);
const { runs, durationMs } = await runQualityBench({ cases, model });
const metrics = computeMetrics(runs.map((run) => run.outcome));

console.table(Object.fromEntries(metricRows(metrics).map(([name, value]) => [name, { value }])));
const failed = runs.filter(({ statuses }) => statuses.some((status) => status !== "succeeded"));
for (const { corpusCase, statuses } of failed) console.warn(`${corpusCase.id}: ${statuses.join(" / ")}`);

const cpus = os.cpus();
await writeFile(
  RESULTS,
  resultsMarkdown(metrics, runs, {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${os.platform()} ${os.release()}, Node ${process.versions.node}, load average ${os.loadavg()[0]?.toFixed(1)}`,
    commit: commit(),
    reviewer,
    durationMs,
  }),
);
console.log(`Wrote ${path.relative(process.cwd(), RESULTS)}`);
