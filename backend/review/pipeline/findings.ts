/**
 * Making findings (shared/contract/reviews.ts) the same way for every reviewer: the bounded quote,
 * the fingerprint, and the final order with duplicates removed.
 */
import { createHash } from "node:crypto";
import {
  FINDING_QUOTE_MAX,
  FINDING_SEVERITY_ORDER,
  type Finding,
  type FindingCategory,
  type FindingSeverity,
} from "../../../shared/contract/reviews.ts";

/** Re-indenting a line or changing its spacing is not a new finding. */
function normaliseLine(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

/**
 * The finding's identity across runs: rule id, path and the normalised text of the line it is on
 * (empty for a file or pull-request finding). The line number is deliberately left out, so a push
 * that shifts the line does not produce a second comment. Always computed from the line as the diff
 * has it, even when the quote is masked, so two different secrets on look-alike lines stay apart.
 */
export function fingerprint(ruleId: string, path: string | null, lineText: string | null): string {
  return createHash("sha256")
    .update([ruleId, path ?? "", normaliseLine(lineText ?? "")].join("\0"))
    .digest("hex");
}

export function boundQuote(text: string): string {
  return text.length <= FINDING_QUOTE_MAX ? text : `${text.slice(0, FINDING_QUOTE_MAX - 1)}…`;
}

interface FindingInputBase {
  ruleId: string;
  severity: FindingSeverity;
  message: string;
  /** The weakness's CWE id (`CWE-89`), where one exists. */
  cwe?: string;
  /** How to fix it, in a sentence. */
  fix?: string;
  /** Omitted for a finding about the whole pull request. */
  path?: string;
  /** A right-side line of `path` inside the diff, with its text. Omitted for a whole-file finding. */
  at?: { line: number; text: string; quote?: string };
}

/** A built-in finding always says what kind of flaw it is; the AI reviewer's may not. */
export type FindingInput = FindingInputBase &
  ({ source?: "builtin"; category: FindingCategory } | { source: "ai"; category?: FindingCategory });

/** `at.quote` replaces the line in the quote (masked secrets); the fingerprint still uses the line. */
export function createFinding(input: FindingInput): Finding {
  const path = input.path ?? null;
  return {
    ruleId: input.ruleId,
    severity: input.severity,
    path,
    line: input.at?.line ?? null,
    quote: input.at ? boundQuote(input.at.quote ?? input.at.text) : null,
    message: input.message,
    ...(input.category ? { category: input.category } : {}),
    ...(input.cwe ? { cwe: input.cwe } : {}),
    ...(input.fix ? { fix: input.fix } : {}),
    fingerprint: fingerprint(input.ruleId, path, input.at?.text ?? null),
    source: input.source ?? "builtin",
  };
}

/** Code-unit order, not the locale's, so every machine posts findings in the same order. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareFindings(a: Finding, b: Finding): number {
  return (
    FINDING_SEVERITY_ORDER.indexOf(a.severity) - FINDING_SEVERITY_ORDER.indexOf(b.severity) ||
    compareText(a.path ?? "", b.path ?? "") ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.ruleId, b.ruleId)
  );
}

/**
 * The same rule on identical lines of a file (two `if (key === '__proto__') return;`) says the
 * flaw is in two places, and each gets its comment: the first in line order keeps the line's
 * fingerprint (as a single occurrence has it), each later one adds its occurrence number, so a
 * rerun of the same head finds every one already posted. docs/decisions/039 weighs what a later
 * push that adds an identical line above costs.
 */
function repeatFingerprint(base: string, occurrence: number): string {
  return createHash("sha256").update(`${base}\0${occurrence}`).digest("hex");
}

/**
 * One finding per fingerprint and line (two rules' matches of one place say one thing), each
 * repeated line numbered as above, most severe first.
 */
export function sortAndDedupe(findings: readonly Finding[]): Finding[] {
  const byPlace = new Map<string, Finding>();
  for (const finding of [...findings].sort(compareFindings)) {
    const place = `${finding.fingerprint}\0${finding.line ?? ""}`;
    if (!byPlace.has(place)) byPlace.set(place, finding);
  }
  const occurrences = new Map<string, number>();
  return [...byPlace.values()]
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
    .map((finding) => {
      const occurrence = occurrences.get(finding.fingerprint) ?? 0;
      occurrences.set(finding.fingerprint, occurrence + 1);
      return occurrence === 0
        ? finding
        : { ...finding, fingerprint: repeatFingerprint(finding.fingerprint, occurrence) };
    })
    .sort(compareFindings);
}
