/**
 * Size rules: a pull request too large to review well, and added lines that look minified or
 * generated (bundles, inlined data) in files the filter did not recognise as such.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import { addedLines, type DiffFile } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import type { Analyzer } from "./analyzer.ts";

export const DEFAULT_MAX_PULL_REQUEST_LINES = 1000;
/** No hand-written line is this long. */
const BLOB_LINE_LENGTH = 1000;
/** Hand-written lines this long have spaces; minified code and base64 hardly any. */
const DENSE_LINE_LENGTH = 200;
const DENSE_WHITESPACE_RATIO = 0.03;

export function looksMinified(text: string): boolean {
  if (text.length >= BLOB_LINE_LENGTH) return true;
  if (text.length < DENSE_LINE_LENGTH) return false;
  const whitespace = text.length - text.replace(/\s/g, "").length;
  return whitespace / text.length < DENSE_WHITESPACE_RATIO;
}

/** The first such line per file: one comment says it; one per line would bury the review. */
function blobFinding(file: DiffFile): Finding | null {
  const added = addedLines(file).find((line) => looksMinified(line.text));
  if (!added) return null;
  return createFinding({
    ruleId: "size/minified-blob",
    severity: "minor",
    category: "hygiene",
    path: file.path,
    at: added,
    message:
      "This added line looks minified or generated: nobody can review it, and it goes stale against " +
      "its source.",
    fix: "Commit the source and build it in CI, or mark the file as generated.",
  });
}

function oversizedFinding(files: readonly DiffFile[], maxLines: number): Finding | null {
  const changed = files.reduce((sum, file) => sum + file.additions + file.deletions, 0);
  if (changed <= maxLines) return null;
  return createFinding({
    ruleId: "size/oversized-pull-request",
    severity: "info",
    category: "hygiene",
    message:
      `This pull request changes ${changed} lines (more than ${maxLines}, not counting skipped files): ` +
      "reviews of this size get skimmed and let defects through.",
    fix: "Split it into smaller pull requests that each do one thing.",
  });
}

export const sizeAnalyzer: Analyzer = {
  name: "size",
  run({ files, maxPullRequestLines }) {
    const findings = files.flatMap((file) => blobFinding(file) ?? []);
    const oversized = oversizedFinding(files, maxPullRequestLines);
    return oversized ? [...findings, oversized] : findings;
  },
};
