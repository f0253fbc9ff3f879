/**
 * Built-in reviewer benchmark: how long reviewBuiltIn takes on a generated pull request of 500
 * added lines over ten TypeScript files (each with its whole content at head, so Biome lints every
 * file), plus a package.json. Reports the first, cold run (Biome's WASM workspace loads) apart from
 * the median and p95 of the warm runs that follow.
 *   node bench/review-builtin.ts   (BENCH_RUNS, default 30)
 */
import { performance } from "node:perf_hooks";
import { type DiffFile, fromPullRequestFiles } from "../backend/review/pipeline/diff.ts";
import { reviewBuiltIn } from "../backend/review/reviewers/builtin/index.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const FILES = 10;
const ADDED_PER_FILE = 50;
const CONTEXT_BEFORE = 100;

function sourceLine(file: number, line: number): string {
  // Mostly ordinary code, with a finding every so often so every analyzer has work to report.
  if (line % 40 === 7) return `  if (results.length == ${line}) { debugger; }`;
  if (line % 40 === 19) return "  // eslint-disable-next-line no-console";
  return `  results.push(compute(${file}, ${line}, "item-${line}"));`;
}

function generatedFile(file: number): DiffFile {
  const before = Array.from({ length: CONTEXT_BEFORE }, (_, line) => sourceLine(file, line));
  const added = Array.from({ length: ADDED_PER_FILE }, (_, line) => sourceLine(file, CONTEXT_BEFORE + line));
  const content = [
    `export function module${file}(compute: (...args: unknown[]) => unknown) {`,
    "  const results: unknown[] = [];",
    ...before,
    ...added,
    "  return results;",
    "}",
  ].join("\n");
  // The hunk: the last three lines before, the added lines, then the return.
  const first = CONTEXT_BEFORE;
  const patch = [
    `@@ -${first},4 +${first},${ADDED_PER_FILE + 4} @@`,
    ...before.slice(-3).map((line) => ` ${line}`),
    ...added.map((line) => `+${line}`),
    "   return results;",
  ].join("\n");
  const [diffFile] = fromPullRequestFiles([
    { filename: `src/module-${file}.ts`, status: "modified", additions: ADDED_PER_FILE, deletions: 0, patch },
  ]);
  if (!diffFile) throw new Error("no file generated");
  return { ...diffFile, content };
}

const files = [
  ...Array.from({ length: FILES }, (_, file) => generatedFile(file)),
  ...fromPullRequestFiles([
    {
      filename: "package.json",
      status: "modified",
      additions: 1,
      deletions: 0,
      patch: '@@ -1,2 +1,3 @@\n   "dependencies": {\n+    "left-pad": "^1.3.0",\n     "zod": "^4.0.0"',
    },
  ]),
];
const addedLines = files.reduce((sum, file) => sum + file.additions, 0);

async function timed(): Promise<{ ms: number; findings: number }> {
  const start = performance.now();
  const review = await reviewBuiltIn(files);
  if (review.failures.length > 0) throw new Error(`analyzer failed: ${JSON.stringify(review.failures)}`);
  return { ms: performance.now() - start, findings: review.findings.length };
}

const cold = await timed();
const warm: number[] = [];
for (let run = 0; run < RUNS; run += 1) warm.push((await timed()).ms);
warm.sort((a, b) => a - b);
const at = (quantile: number) =>
  warm[Math.min(warm.length - 1, Math.floor(quantile * warm.length))] ?? Number.NaN;

console.log(
  `built-in reviewer, ${addedLines} added lines in ${files.length} files, ${cold.findings} findings`,
);
console.log(`cold (first run, loads Biome): ${cold.ms.toFixed(1)} ms`);
console.log(`warm over ${RUNS} runs: median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`);
