/**
 * The quality benchmark's report: the metrics as rows for the terminal, and RESULTS.md with the
 * machine, date, commit and reviewer, recall by severity and category, every case's outcome, and the
 * published figures for context.
 */

import type { CaseRun } from "./bench.ts";
import { DEFECT_CATEGORIES, DEFECT_SEVERITIES } from "./corpus.ts";
import { matchesDefect, type QualityMetrics, type Ratio } from "./metrics.ts";

export interface ReportContext {
  date: string;
  machine: string;
  commit: string;
  reviewer: string;
  durationMs: number;
}

const percent = (share: number | null) => (share === null ? "n/a" : `${(share * 100).toFixed(1)}%`);
const ofTotal = (ratio: Ratio) => `${percent(ratio.share)} (${ratio.count}/${ratio.total})`;
const number = (value: number | null, digits = 2) => (value === null ? "n/a" : value.toFixed(digits));

/** Metric and value pairs, in the report's order. */
export function metricRows(metrics: QualityMetrics): [string, string][] {
  const { falsePositives: fp } = metrics;
  return [
    ["cases (defect / clean)", `${metrics.cases.total} (${metrics.cases.defect} / ${metrics.cases.clean})`],
    ["recall", ofTotal(metrics.recall)],
    ...DEFECT_SEVERITIES.map((severity): [string, string] => [
      `recall, ${severity}`,
      ofTotal(metrics.recallBySeverity[severity]),
    ]),
    ["precision", ofTotal(metrics.precision)],
    ["F1", percent(metrics.f1)],
    [
      "false positives per clean pull request",
      `${number(fp.perCleanPullRequest)} (${fp.onCleanCases} in all)`,
    ],
    ["false positives on defect cases (matching no defect)", String(fp.onDefectCases)],
    ["anchors valid (target 100%)", ofTotal(metrics.anchorsValid)],
    ["duplicates on the second run (target 0)", String(metrics.duplicates)],
    [
      "model answers schema-valid on first try",
      metrics.schemaValidFirstTry ? ofTotal(metrics.schemaValidFirstTry) : "n/a (no model)",
    ],
    [
      "runs whose AI pass failed",
      metrics.modelFailedRuns === null ? "n/a (no model)" : String(metrics.modelFailedRuns),
    ],
    [
      "tokens per run (input + output)",
      metrics.tokens
        ? `${number(metrics.tokens.perRun, 0)} (${metrics.tokens.input} in, ${metrics.tokens.output} out)`
        : "n/a (no model)",
    ],
    [
      "cost per run",
      metrics.costUsd
        ? `$${metrics.costUsd.perRun.toFixed(4)} ($${metrics.costUsd.total.toFixed(4)} in all)`
        : "n/a",
    ],
  ];
}

const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");

function caseRows(runs: readonly CaseRun[]): string[][] {
  return runs.map(({ corpusCase, outcome, statuses }) => {
    const caught = outcome.defects.filter((defect) =>
      outcome.firstRun.some((finding) => matchesDefect(finding, defect)),
    ).length;
    const stray = outcome.firstRun.filter(
      (finding) => !outcome.defects.some((defect) => matchesDefect(finding, defect)),
    ).length;
    return [
      corpusCase.id,
      corpusCase.kind,
      corpusCase.kind === "defect"
        ? corpusCase.defects.map((defect) => `${defect.category}, ${defect.severity}`).join("; ")
        : "",
      corpusCase.kind === "defect" ? `${caught}/${outcome.defects.length}` : "",
      String(stray),
      String(outcome.secondRun.length),
      statuses.every((status) => status === "succeeded") ? "" : statuses.join(" / "),
    ];
  });
}

export function resultsMarkdown(
  metrics: QualityMetrics,
  runs: readonly CaseRun[],
  context: ReportContext,
): string {
  return `# Review quality: latest results

Written by \`npm run bench:quality\` (bench/review-quality/run.ts); bench/README.md says how to run it
against a model and what each figure means.

| | |
|---|---|
| date | ${context.date} |
| machine | ${context.machine} |
| commit | ${context.commit} |
| reviewer | ${context.reviewer} |
| run time | ${(context.durationMs / 1000).toFixed(1)} s |

## Metrics

${table(
  ["metric", "value"],
  metricRows(metrics).map(([name, value]) => [name, value]),
)}

A finding matches a planted defect when it is on the same path within the defect's lines ±2.
Catch rate alone is meaningless: a reviewer that comments on every line catches everything. Recall
and false positives (on clean pull requests, and stray findings on the others) are reported together.

## Recall by category

${table(
  ["category", "recall"],
  DEFECT_CATEGORIES.map((category) => [category, ofTotal(metrics.recallByCategory[category])]),
)}

## Published figures, for context

- SWR-Bench: the best F1 any model reached is 19.4%.
- SWE-PRBench: models catch 15–31% of the issues human reviewers flagged.

Those benchmarks use real pull requests and human review comments; this corpus is small and written
for this project, so compare the figures with each other across runs of this benchmark, and with the
published ones only as an order of magnitude.

## Cases

"Stray" counts first-run findings that match no planted defect (all findings of a clean case);
"second run" counts every finding the \`full review\` run of the same head posted (those on a line
the first run commented on are the duplicates).

${table(["case", "kind", "planted", "caught", "stray", "second run", "run status"], caseRows(runs))}
`;
}
