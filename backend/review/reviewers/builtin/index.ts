/**
 * The built-in reviewer (docs/review-engine.md): filters the changed files, runs every analyzer on
 * what is left (the rule engine among them, with the rules it is given), and answers the findings,
 * most severe first, one per fingerprint and one per line and weakness, with notes on what was
 * skipped or failed. An analyzer that throws costs only its own findings.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import type { DiffFile } from "../../pipeline/diff.ts";
import { type FilterOptions, filterFiles, type SkippedFile } from "../../pipeline/file-filter.ts";
import { sortAndDedupe } from "../../pipeline/findings.ts";
import type { Analyzer } from "./analyzer.ts";
import { biomeAnalyzer } from "./biome.ts";
import { dependenciesAnalyzer } from "./dependencies.ts";
import { hygieneAnalyzer } from "./hygiene.ts";
import { markersAnalyzer } from "./markers.ts";
import { builtInRules } from "./rules/families.ts";
import type { RelatedModules } from "./rules/imports.ts";
import type { LoadedRule } from "./rules/rule-config.ts";
import { type RuleReport, rulesAnalyzer } from "./rules.ts";
import { secretsAnalyzer } from "./secrets.ts";
import { DEFAULT_MAX_PULL_REQUEST_LINES, sizeAnalyzer } from "./size.ts";

export const BUILTIN_ANALYZERS: readonly Analyzer[] = [
  secretsAnalyzer,
  biomeAnalyzer,
  markersAnalyzer,
  hygieneAnalyzer,
  dependenciesAnalyzer,
  sizeAnalyzer,
];

export interface ReviewOptions extends FilterOptions {
  /** Above this many changed lines in reviewed files the pull request gets an "oversized" finding. */
  maxPullRequestLines?: number;
  /** The analyzers to run; all of them (and the rule engine) by default. */
  analyzers?: readonly Analyzer[];
  /** What the rule engine runs: every built-in family by default; the pipeline passes those a repository has on and its team rules. */
  rules?: readonly LoadedRule[];
  /** The repository modules the changed files import and call, fetched at head (rules/imports.ts). */
  related?: RelatedModules;
}

export interface AnalyzerFailure {
  analyzer: string;
  /** The error's message only: a stack or the input could carry file content. */
  error: string;
}

export interface BuiltInReview {
  findings: Finding[];
  skipped: SkippedFile[];
  failures: AnalyzerFailure[];
  /** What analyzers could not do, for the run page. */
  notes: string[];
  /** The rule engine's failures and the files it parsed from hunks alone. */
  rules: RuleReport;
}

/**
 * One finding per line and weakness: the rule engine's taint-checked finding and Biome's or a secret
 * rule's on the same line with the same CWE id say one thing (`eval(req.body.code)`). Biome's goes.
 */
function onePerWeakness(findings: readonly Finding[]): Finding[] {
  const kept = new Map<string, Finding>();
  const rest: Finding[] = [];
  for (const finding of findings) {
    if (!finding.cwe || finding.line === null) {
      rest.push(finding);
      continue;
    }
    const key = `${finding.path}\u0000${finding.line}\u0000${finding.cwe}`;
    const before = kept.get(key);
    if (!before || (before.ruleId.startsWith("biome/") && !finding.ruleId.startsWith("biome/")))
      kept.set(key, finding);
  }
  return [...rest, ...kept.values()];
}

export async function reviewBuiltIn(
  files: readonly DiffFile[],
  options: ReviewOptions = {},
): Promise<BuiltInReview> {
  const { reviewable, skipped, findings: filterFindings } = filterFiles(files, options);
  const notes: string[] = [];
  const input = {
    files: reviewable,
    related: options.related ?? new Map(),
    maxPullRequestLines: options.maxPullRequestLines ?? DEFAULT_MAX_PULL_REQUEST_LINES,
    note: (text: string) => {
      notes.push(text);
    },
  };
  const failures: AnalyzerFailure[] = [];
  const report: RuleReport = { failures: [], fromHunks: [] };
  const analyzers = options.analyzers ?? [
    ...BUILTIN_ANALYZERS,
    rulesAnalyzer(options.rules ?? builtInRules(), report),
  ];
  const results = await Promise.all(
    analyzers.map(async (analyzer) => {
      try {
        return await analyzer.run(input);
      } catch (error) {
        failures.push({
          analyzer: analyzer.name,
          error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
        });
        return [];
      }
    }),
  );
  return {
    findings: sortAndDedupe(onePerWeakness([...filterFindings, ...results.flat()])),
    skipped,
    failures,
    notes,
    rules: report,
  };
}
