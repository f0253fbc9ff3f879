/**
 * The quality benchmark's report: the metrics as rows for the terminal, and RESULTS.md with the
 * machine, date, commit and reviewer; for each set (written, real-world) recall by severity,
 * category and language, and the peers side by side; the targets of the real-world corpus; every
 * case's outcome with its provenance; and the published figures for context.
 */

import type { CaseRun } from "./bench.ts";
import { CASE_SETS, type CaseSet, DEFECT_CATEGORIES, DEFECT_SEVERITIES, LANGUAGES } from "./corpus.ts";
import { matchesDefect, type QualityMetrics, type Ratio, ratio } from "./metrics.ts";
import type { PeerRun } from "./peers/peer.ts";
import { type PeerScore, scorePeer } from "./peers/score.ts";

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
    ["findings naming no category (they catch nothing)", String(metrics.withoutCategory)],
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

/** Everything one run measured, for the report. */
export interface QualityReport {
  metrics: Record<CaseSet, QualityMetrics>;
  runs: readonly CaseRun[];
  peers: readonly PeerRun[];
  /** Real-world cases whose source was not at hand. */
  unavailable: readonly { id: string; reason: string }[];
}

const sum = (ratios: readonly Ratio[]) =>
  ratio(
    ratios.reduce((total, each) => total + each.count, 0),
    ratios.reduce((total, each) => total + each.total, 0),
  );

const NON_SECURITY = ["logic", "resource-leak", "race"] as const;

function caseRows(runs: readonly CaseRun[], peers: readonly PeerRun[]): string[][] {
  return runs.map(({ corpusCase, outcome, statuses }) => {
    const caught = outcome.defects.filter((defect) =>
      outcome.firstRun.some((finding) => matchesDefect(finding, defect)),
    ).length;
    const stray = outcome.firstRun.filter(
      (finding) => !outcome.defects.some((defect) => matchesDefect(finding, defect)),
    ).length;
    const peerCells = peers.map((peer) => {
      const result = peer.results.get(corpusCase.id);
      if (!result) return "";
      if (result.status !== "ran") return "not run";
      const peerCaught = corpusCase.defects.filter((defect) =>
        result.findings.some((finding) => matchesDefect(finding, defect)),
      ).length;
      return corpusCase.kind === "defect"
        ? `${peerCaught}/${corpusCase.defects.length} (${result.findings.length})`
        : `(${result.findings.length})`;
    });
    const source = corpusCase.source;
    return [
      corpusCase.id,
      corpusCase.kind,
      source
        ? `${source.repository}@${source.commit.slice(0, 10)}${source.advisories.length ? `, ${source.advisories.join(", ")}` : source.reference ? `, ${source.reference}` : ""}`
        : "written",
      corpusCase.kind === "defect"
        ? corpusCase.defects.map((defect) => `${defect.category}, ${defect.severity}`).join("; ")
        : "",
      corpusCase.kind === "defect" ? `${caught}/${outcome.defects.length}` : "",
      String(stray),
      String(outcome.secondRun.length),
      ...peerCells,
      statuses.every((status) => status === "succeeded") ? "" : statuses.join(" / "),
    ];
  });
}

const dash = "—";

function sideBySide(metrics: QualityMetrics, scores: readonly PeerScore[], total: number): string {
  const argus = [
    "Argus",
    `${total}/${total}`,
    ofTotal(metrics.recall),
    ...DEFECT_CATEGORIES.map((category) => ofTotal(metrics.recallByCategory[category])),
    ...LANGUAGES.map((language) => ofTotal(metrics.recallByLanguage[language])),
    number(metrics.falsePositives.perCleanPullRequest),
  ];
  const peers = scores.map((score) =>
    score.installed
      ? [
          score.peer,
          `${score.ran}/${score.inScope}`,
          ofTotal(score.recall.recall),
          ...DEFECT_CATEGORIES.map((category) => ofTotal(score.recall.byCategory[category])),
          ...LANGUAGES.map((language) =>
            score.languages.has(language) ? ofTotal(score.recall.byLanguage[language]) : dash,
          ),
          `${number(score.perCleanCase)} (${score.findingsOnClean} on ${score.cleanRan})`,
        ]
      : [
          score.peer,
          "not installed",
          ...DEFECT_CATEGORIES.map(() => dash),
          ...LANGUAGES.map(() => dash),
          dash,
          dash,
        ],
  );
  return table(
    ["reviewer", "cases run", "recall", ...DEFECT_CATEGORIES, ...LANGUAGES, "findings per clean case"],
    [argus, ...peers],
  );
}

function setSection(set: CaseSet, report: QualityReport): string {
  const metrics = report.metrics[set];
  const cases = report.runs.filter((run) => run.corpusCase.set === set).map((run) => run.corpusCase);
  const scores = report.peers.map((peer) => scorePeer(peer, cases));
  const notRun = report.peers.flatMap((peer) =>
    cases.flatMap((corpusCase) => {
      const result = peer.results.get(corpusCase.id);
      return result?.status === "not run" ? [`- ${peer.peer}, ${corpusCase.id}: ${result.reason}`] : [];
    }),
  );
  return `## ${set === "written" ? "Written corpus" : "Real-world corpus"}

${table(["metric", "value"], metricRows(metrics))}

### Recall by category and language

${table(
  ["category", "recall"],
  DEFECT_CATEGORIES.map((category) => [category, ofTotal(metrics.recallByCategory[category])]),
)}

${table(
  ["language", "recall"],
  LANGUAGES.map((language) => [language, ofTotal(metrics.recallByLanguage[language])]),
)}

### Peers, side by side

The same cases, the same matcher (same path, line within ±2, the defect's category through each peer's
rule mapping), findings on added lines only. A peer's recall is over the cases it ran on ("cases
run"); a language it does not review is "${dash}".

${sideBySide(metrics, scores, cases.length)}
${notRun.length ? `\nCases a peer could not run:\n\n${notRun.join("\n")}\n` : ""}`;
}

type Verdict = [string, string, string, string];

function verdict(name: string, value: Ratio | number | null, target: string, pass: boolean | null): Verdict {
  const shown =
    typeof value === "number"
      ? Number.isInteger(value)
        ? String(value)
        : value.toFixed(2)
      : value === null
        ? "n/a"
        : ofTotal(value);
  return [name, shown, target, pass === null ? "n/a" : pass ? "pass" : "fail"];
}

const atLeast = (value: Ratio, share: number) => (value.share === null ? null : value.share >= share);

function targets(report: QualityReport): string[][] {
  const real = report.metrics["real-world"];
  const written = report.metrics.written;
  const nonSecurity = sum(NON_SECURITY.map((category) => real.recallByCategory[category]));
  const rows: Verdict[] = [
    verdict(
      "real-world: security recall",
      real.recallByCategory.security,
      "≥ 60%",
      atLeast(real.recallByCategory.security, 0.6),
    ),
    verdict(
      "real-world: critical recall",
      real.recallBySeverity.critical,
      "≥ 70%",
      atLeast(real.recallBySeverity.critical, 0.7),
    ),
    verdict(
      "real-world: logic, resource-leak and race recall",
      nonSecurity,
      "≥ 20%",
      atLeast(nonSecurity, 0.2),
    ),
    verdict(
      "real-world: findings per clean pull request",
      real.falsePositives.perCleanPullRequest,
      "≤ 0.1",
      real.falsePositives.perCleanPullRequest === null
        ? null
        : real.falsePositives.perCleanPullRequest <= 0.1,
    ),
    verdict(
      "real-world: anchors valid",
      real.anchorsValid,
      "100%",
      real.anchorsValid.total === 0 ? null : real.anchorsValid.share === 1,
    ),
    verdict("real-world: duplicates", real.duplicates, "0", real.duplicates === 0),
    verdict("written: recall", written.recall, "≥ 50%", atLeast(written.recall, 0.5)),
    verdict(
      "written: findings on clean cases",
      written.falsePositives.onCleanCases,
      "0",
      written.falsePositives.onCleanCases === 0,
    ),
  ];
  const cases = report.runs.map((run) => run.corpusCase);
  const all = CASE_SETS.map((set) => report.metrics[set]);
  for (const language of LANGUAGES) {
    const argus = sum(all.map((metrics) => metrics.recallByLanguage[language]));
    const ofLanguage = cases.filter((corpusCase) => corpusCase.language === language);
    const argusClean = report.runs.filter(
      (run) => run.corpusCase.language === language && run.corpusCase.kind === "clean",
    );
    const argusPerClean = argusClean.length
      ? argusClean.reduce((total, run) => total + run.outcome.firstRun.length, 0) / argusClean.length
      : null;
    for (const peer of report.peers) {
      const score = scorePeer(peer, ofLanguage);
      if (!score.installed || score.ran === 0) continue;
      const recallAbove =
        argus.share !== null && score.recall.recall.share !== null && argus.share > score.recall.recall.share;
      const noisier =
        argusPerClean !== null && score.perCleanCase !== null && argusPerClean > score.perCleanCase;
      rows.push([
        `${language}: Argus against ${score.peer}, both sets`,
        `recall ${percent(argus.share)} against ${percent(score.recall.recall.share)}; per clean case ${number(argusPerClean)} against ${number(score.perCleanCase)}`,
        "higher recall, no more findings per clean case",
        recallAbove && !noisier ? "pass" : "fail",
      ]);
    }
  }
  return rows;
}

export function resultsMarkdown(report: QualityReport, context: ReportContext): string {
  const peerHeads = report.peers.map((peer) => peer.peer);
  const versions = report.peers.map((peer) => `- ${peer.peer}: ${peer.version}`).join("\n");
  return `# Review quality: latest results

Written by \`npm run bench:quality\` (bench/review-quality/run.ts); bench/README.md says how to run it
against a model, what each figure means and how the peers run.

| | |
|---|---|
| date | ${context.date} |
| machine | ${context.machine} |
| commit | ${context.commit} |
| reviewer | ${context.reviewer} |
| run time | ${(context.durationMs / 1000).toFixed(1)} s |

Peers:

${versions}

A finding catches a planted defect when it is on the same path, within the defect's lines ±2, and
of the defect's category: a finding of another category (or of none) at that place is not a catch.
Catch rate alone is meaningless: a reviewer that comments on every line catches everything, so
recall and findings on clean pull requests are reported together.
${
  report.unavailable.length
    ? `\n**Real-world cases not run** (their source repositories were not at hand; see bench/README.md):
${report.unavailable.map(({ id, reason }) => `- ${id}: ${reason}`).join("\n")}\n`
    : ""
}
## Targets

${table(["figure", "value", "target", "verdict"], targets(report))}

${CASE_SETS.map((set) => setSection(set, report)).join("\n")}
## Published figures, for context

- SWR-Bench: the best F1 any model reached is 19.4%.
- SWE-PRBench: models catch 15–31% of the issues human reviewers flagged.
- A study of 815 vulnerability-contributing commits (ISSTA 2024) found a single static analyzer warns
  inside the vulnerable function for 52% of them, most of its warnings there being unrelated.

## Cases

"Stray" counts Argus's first-run findings that match no defect (all findings of a clean case);
"second run" counts every finding the \`full review\` run of the same head posted (those on a line
the first run commented on are the duplicates). A peer's cell is defects caught / planted, with its
findings on added lines in brackets.

${table(
  ["case", "kind", "source", "planted", "caught", "stray", "second run", ...peerHeads, "run status"],
  caseRows(report.runs, report.peers),
)}
`;
}
