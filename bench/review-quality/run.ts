/**
 * Review quality benchmark: the whole review pipeline over the corpus, twice per case, the peers
 * (bandit, ESLint with its security plugins, secretlint, go vet) over the same cases, then the
 * metrics per set as tables and bench/review-quality/RESULTS.md rewritten.
 *   npm run bench:quality   (the built-in reviewer alone; ARGUS_QUALITY_MODEL_* for a model, see
 *                            model.ts; QUALITY_CASES=ts-01-user-search-sql,go-05-slack-token for some;
 *                            QUALITY_SOURCES=<folder of clones> for the real-world set, real-world.ts)
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runQualityBench } from "./bench.ts";
import { CASE_SETS, loadCorpus } from "./corpus.ts";
import { computeMetrics } from "./metrics.ts";
import { describeReviewer, qualityModelFromEnv } from "./model.ts";
import { runPeers } from "./peers/index.ts";
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
const { cases, unavailable } = await loadCorpus(only ? { only } : {});
for (const { id, reason } of unavailable) console.warn(`${id}: not run, ${reason}`);
const reviewer = describeReviewer(model);
console.log(`Reviewing ${cases.length} pull requests twice with the ${reviewer}…`);
const { runs, durationMs } = await runQualityBench({ cases, model });
const metrics = Object.fromEntries(
  CASE_SETS.map((set) => [
    set,
    computeMetrics(runs.filter((run) => run.corpusCase.set === set).map((run) => run.outcome)),
  ]),
) as Record<(typeof CASE_SETS)[number], ReturnType<typeof computeMetrics>>;
for (const set of CASE_SETS) {
  console.log(set);
  console.table(Object.fromEntries(metricRows(metrics[set]).map(([name, value]) => [name, { value }])));
}
console.log("Running the peers on the same cases…");
const peersStarted = performance.now();
const peers = await runPeers(cases);
console.log(`Peers took ${((performance.now() - peersStarted) / 1000).toFixed(1)} s.`);
const failed = runs.filter(({ statuses }) => statuses.some((status) => status !== "succeeded"));
for (const { corpusCase, statuses } of failed) console.warn(`${corpusCase.id}: ${statuses.join(" / ")}`);

const cpus = os.cpus();
await writeFile(
  RESULTS,
  resultsMarkdown(
    { metrics, runs, peers, unavailable },
    {
      date: new Date().toISOString().slice(0, 10),
      machine: `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${os.platform()} ${os.release()}, Node ${process.versions.node}, load average ${os.loadavg()[0]?.toFixed(1)}`,
      commit: commit(),
      reviewer,
      durationMs,
    },
  ),
);
console.log(`Wrote ${path.relative(process.cwd(), RESULTS)}`);
