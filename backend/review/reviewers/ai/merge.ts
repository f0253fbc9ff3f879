/**
 * The built-in and AI findings as one list (docs/review-engine.md, "AI pass"): the built-in
 * reviewer's findings win, so an AI finding on a line a built-in one already covers is left out,
 * then one finding per fingerprint, most severe first.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import { sortAndDedupe } from "../../pipeline/findings.ts";

const lineKey = (finding: Finding) => (finding.line === null ? null : `${finding.path}\0${finding.line}`);

export function mergeFindings(
  builtin: readonly Finding[],
  ai: readonly Finding[],
): { findings: Finding[]; sameLineAsBuiltIn: number } {
  const covered = new Set(builtin.map(lineKey).filter((key) => key !== null));
  const kept = ai.filter((finding) => {
    const key = lineKey(finding);
    return key === null || !covered.has(key);
  });
  return { findings: sortAndDedupe([...builtin, ...kept]), sameLineAsBuiltIn: ai.length - kept.length };
}
