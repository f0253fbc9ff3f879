/**
 * Review quality metrics from what a benchmark run posted (pure; bench/README.md, "Review quality").
 *
 * Matching rule: a posted finding matches a planted defect when it names the same path, its line
 * lies within the defect's lines widened by LINE_TOLERANCE on each side, and it names the defect's
 * category (a finding of another category, or of none, at the same place is not a catch). A finding
 * without a line (on a whole file or the pull request) matches nothing.
 * - recall: planted defects matched by at least one finding of the first run;
 * - precision: findings of the first run that match a defect, over all findings posted;
 * - false positives: every finding posted on a clean pull request, and, counted apart, findings on a
 *   defect case that match none of its defects;
 * - anchors: each inline comment's line at head holds the text its finding quotes;
 * - duplicates: findings the second run posts again on a path and line (or the same file or pull
 *   request) the first run already commented on, the head being unchanged.
 */
import type { FindingCategory, FindingSeverity } from "../../shared/contract/reviews.ts";
import {
  type CaseSet,
  DEFECT_CATEGORIES,
  DEFECT_SEVERITIES,
  type DefectCategory,
  type DefectSeverity,
  LANGUAGES,
  type Language,
} from "./corpus.ts";

/** Lines of slack either side of a planted defect: a comment on the statement's first line counts. */
export const LINE_TOLERANCE = 2;

export interface DefectLines {
  path: string;
  line: number;
  endLine: number;
  severity: DefectSeverity;
  category: DefectCategory;
}

/** What the matcher needs of a finding: where it is and what kind of flaw it names. */
export interface PlacedFinding {
  path: string | null;
  line: number | null;
  /** Null when the finding names no category: it then catches nothing. */
  category: FindingCategory | null;
}

/** A finding the pipeline posted (inline or in the summary). */
export interface PostedFinding extends PlacedFinding {
  quote: string | null;
  severity: FindingSeverity;
  /** Posted as a comment on its line (the anchor is checked) rather than in the review's body. */
  inline: boolean;
  /** For an inline comment: the text of its line at head (undefined when the file has no such line). */
  lineText?: string | undefined;
}

/** What the model calls of one case cost, both runs together. */
export interface ModelCalls {
  /** Review answers the model gave. */
  answers: number;
  /** Of those, valid on the first request (no repair retry). */
  validFirstTry: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when the run records no cost. */
  costUsd: number | null;
  /** Runs whose AI pass failed (timeout, unreachable, an answer invalid even after repair). */
  failedRuns: number;
}

export interface CaseOutcome {
  id: string;
  set: CaseSet;
  language: Language;
  kind: "defect" | "clean";
  defects: DefectLines[];
  firstRun: PostedFinding[];
  secondRun: PostedFinding[];
  /** Null for the built-in reviewer alone. */
  model: ModelCalls | null;
}

export interface Ratio {
  count: number;
  total: number;
  /** count / total; null when total is 0. */
  share: number | null;
}

export interface QualityMetrics {
  cases: { total: number; defect: number; clean: number };
  recall: Ratio;
  recallBySeverity: Record<DefectSeverity, Ratio>;
  recallByCategory: Record<DefectCategory, Ratio>;
  recallByLanguage: Record<Language, Ratio>;
  precision: Ratio;
  f1: number | null;
  falsePositives: {
    onCleanCases: number;
    perCleanPullRequest: number | null;
    onDefectCases: number;
  };
  anchorsValid: Ratio;
  duplicates: number;
  /** Posted findings that name no category (they can catch nothing). */
  withoutCategory: number;
  /** Null when no model ran. */
  schemaValidFirstTry: Ratio | null;
  tokens: { input: number; output: number; perRun: number } | null;
  /** Runs whose AI pass failed; null when no model ran. */
  modelFailedRuns: number | null;
  costUsd: { total: number; perRun: number } | null;
}

export const ratio = (count: number, total: number): Ratio => ({
  count,
  total,
  share: total === 0 ? null : count / total,
});

export function matchesDefect(finding: PlacedFinding, defect: DefectLines): boolean {
  return (
    finding.category === defect.category &&
    finding.path === defect.path &&
    finding.line !== null &&
    finding.line >= defect.line - LINE_TOLERANCE &&
    finding.line <= defect.endLine + LINE_TOLERANCE
  );
}

const collapse = (text: string) => text.trim().replace(/\s+/g, " ");

/**
 * Whether `lineText` is the line `quote` quotes: equal once white space is collapsed, where a `*`
 * of the quote stands for any one character (a masked secret) and a quote cut short with `…` need
 * only begin the line.
 */
export function anchorHolds(quote: string | null, lineText: string | undefined): boolean {
  if (quote === null || lineText === undefined) return false;
  const cut = quote.endsWith("…");
  const wanted = collapse(cut ? quote.slice(0, -1) : quote);
  const actual = collapse(lineText);
  if (cut ? actual.length < wanted.length : actual.length !== wanted.length) return false;
  return [...wanted].every((char, index) => char === "*" || char === actual[index]);
}

/** A case as the recall counts it: its defects and the findings made on it. */
export interface ScoredCase {
  language: Language;
  defects: readonly DefectLines[];
  findings: readonly PlacedFinding[];
}

/** Recall over the defects of `cases` that `keep` selects (all by default). */
export function recallOf<Case extends ScoredCase>(cases: readonly Case[]) {
  const defects = cases.flatMap((scored) =>
    scored.defects.map((defect) => ({
      defect,
      scored,
      caught: scored.findings.some((finding) => matchesDefect(finding, defect)),
    })),
  );
  const recallWhere = (keep: (defect: DefectLines, scored: Case) => boolean) => {
    const kept = defects.filter(({ defect, scored }) => keep(defect, scored));
    return ratio(kept.filter(({ caught }) => caught).length, kept.length);
  };
  return { recallWhere };
}

/** Recall overall, by category and by language, of a reviewer's findings on `cases`. */
export function recallTable(cases: readonly ScoredCase[]) {
  const { recallWhere } = recallOf(cases);
  return {
    recall: recallWhere(() => true),
    bySeverity: Object.fromEntries(
      DEFECT_SEVERITIES.map((severity) => [severity, recallWhere((defect) => defect.severity === severity)]),
    ) as Record<DefectSeverity, Ratio>,
    byCategory: Object.fromEntries(
      DEFECT_CATEGORIES.map((category) => [category, recallWhere((defect) => defect.category === category)]),
    ) as Record<DefectCategory, Ratio>,
    byLanguage: Object.fromEntries(
      LANGUAGES.map((language) => [language, recallWhere((_, scored) => scored.language === language)]),
    ) as Record<Language, Ratio>,
  };
}
export type RecallTable = ReturnType<typeof recallTable>;

const sameSpot = (a: PostedFinding, b: PostedFinding) => a.path === b.path && a.line === b.line;

export function computeMetrics(outcomes: readonly CaseOutcome[]): QualityMetrics {
  const defectCases = outcomes.filter((outcome) => outcome.kind === "defect");
  const cleanCases = outcomes.filter((outcome) => outcome.kind === "clean");
  const { recallWhere } = recallOf(
    defectCases.map((outcome) => ({ ...outcome, findings: outcome.firstRun })),
  );

  const posted = outcomes.flatMap((outcome) => outcome.firstRun);
  const truePositives = defectCases.flatMap((outcome) =>
    outcome.firstRun.filter((finding) => outcome.defects.some((defect) => matchesDefect(finding, defect))),
  ).length;
  const recall = recallWhere(() => true);
  const precision = ratio(truePositives, posted.length);
  const f1 =
    recall.share === null || precision.share === null
      ? null
      : recall.share + precision.share === 0
        ? 0
        : (2 * recall.share * precision.share) / (recall.share + precision.share);
  const onCleanCases = cleanCases.reduce((sum, outcome) => sum + outcome.firstRun.length, 0);

  const inline = posted.filter((finding) => finding.inline);
  const duplicates = outcomes.reduce(
    (sum, outcome) =>
      sum +
      outcome.secondRun.filter((again) => outcome.firstRun.some((first) => sameSpot(first, again))).length,
    0,
  );

  const calls = outcomes.flatMap((outcome) => (outcome.model ? [outcome.model] : []));
  const runs = outcomes.length * 2;
  const sum = (pick: (each: ModelCalls) => number) => calls.reduce((total, each) => total + pick(each), 0);
  const tokens = calls.length
    ? {
        input: sum((each) => each.inputTokens),
        output: sum((each) => each.outputTokens),
        perRun: sum((each) => each.inputTokens + each.outputTokens) / runs,
      }
    : null;
  const costs = calls.filter((each) => each.costUsd !== null);
  const costTotal = sum((each) => each.costUsd ?? 0);

  return {
    cases: { total: outcomes.length, defect: defectCases.length, clean: cleanCases.length },
    recall,
    recallBySeverity: Object.fromEntries(
      DEFECT_SEVERITIES.map((severity) => [severity, recallWhere((defect) => defect.severity === severity)]),
    ) as Record<DefectSeverity, Ratio>,
    recallByCategory: Object.fromEntries(
      DEFECT_CATEGORIES.map((category) => [category, recallWhere((defect) => defect.category === category)]),
    ) as Record<DefectCategory, Ratio>,
    recallByLanguage: Object.fromEntries(
      LANGUAGES.map((language) => [language, recallWhere((_, outcome) => outcome.language === language)]),
    ) as Record<Language, Ratio>,
    precision,
    f1,
    falsePositives: {
      onCleanCases,
      perCleanPullRequest: cleanCases.length ? onCleanCases / cleanCases.length : null,
      onDefectCases: posted.length - onCleanCases - truePositives,
    },
    anchorsValid: ratio(
      inline.filter((finding) => anchorHolds(finding.quote, finding.lineText)).length,
      inline.length,
    ),
    duplicates,
    withoutCategory: posted.filter((finding) => finding.category === null).length,
    schemaValidFirstTry: calls.length
      ? ratio(
          sum((each) => each.validFirstTry),
          sum((each) => each.answers),
        )
      : null,
    tokens,
    modelFailedRuns: calls.length ? sum((each) => each.failedRuns) : null,
    costUsd: costs.length ? { total: costTotal, perRun: costTotal / runs } : null,
  };
}
