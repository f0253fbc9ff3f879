/**
 * What the model reads of the diff (docs/review-engine.md, "AI pass"): each file's hunks with the
 * right-side lines numbered as in the head commit, so a finding can name its line, and the removed
 * lines after them without numbers (a finding is never on a removed line). Whole files are packed
 * into a token budget; a file that does not fit is left out whole and named, never cut.
 */
import { createRequire } from "node:module";
import type { DiffFile, Hunk } from "../../pipeline/diff.ts";

/**
 * Tokens as OpenAI's current models count them. Other models' tokenizers differ by some percent;
 * the answer reserve absorbs that, and a provider that still finds the prompt too long fails the
 * AI pass alone (the built-in findings are posted).
 */
export const tokensOf = (text: string): number => tokenizer().countTokens(text);

type Tokenizer = typeof import("gpt-tokenizer/encoding/o200k_base");
let loaded: Tokenizer | undefined;
/**
 * The encoding's tables hold some 40 MB: loaded on the first count, which only a review with a
 * model configured makes (docs/performance.md, "Backend memory").
 */
const tokenizer = (): Tokenizer =>
  (loaded ??= createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as Tokenizer);

function numberedHunk(hunk: Hunk): string {
  const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
  const right = hunk.lines.flatMap((line) =>
    line.newLine === null ? [] : [`${line.newLine} ${line.kind === "add" ? "+" : " "}${line.text}`],
  );
  const removed = hunk.lines.flatMap((line) => (line.kind === "del" ? [`-${line.text}`] : []));
  return [header, "__new hunk__", ...right, ...(removed.length ? ["__old hunk__", ...removed] : [])].join(
    "\n",
  );
}

/** One file as the model reads it: a header naming the file, then its numbered hunks. */
export function numberedFile(file: DiffFile): string {
  const renamed = file.previousPath ? `, renamed from ${file.previousPath}` : "";
  return [`## File: ${file.path} (${file.status}${renamed})`, ...file.hunks.map(numberedHunk)].join("\n\n");
}

export interface PackedDiff {
  /** The numbered files that fit, in the order they were packed, separated by blank lines. */
  text: string;
  tokens: number;
  included: string[];
  /** Files left out because they did not fit, most changed first. */
  leftOut: string[];
}

/** Most changed lines first (where defects are likeliest), then by path so the order is stable. */
function packingOrder(a: DiffFile, b: DiffFile): number {
  return b.additions + b.deletions - (a.additions + a.deletions) || (a.path < b.path ? -1 : 1);
}

/**
 * Whole files, most changed first, while they fit in `budgetTokens`; a file too large for what is
 * left is skipped and smaller ones after it may still fit.
 */
export function packDiff(files: readonly DiffFile[], budgetTokens: number): PackedDiff {
  const separator = tokensOf("\n\n");
  const packed: PackedDiff = { text: "", tokens: 0, included: [], leftOut: [] };
  const parts: string[] = [];
  for (const file of [...files].sort(packingOrder)) {
    const text = numberedFile(file);
    const cost = tokensOf(text) + (parts.length ? separator : 0);
    if (packed.tokens + cost > budgetTokens) {
      packed.leftOut.push(file.path);
      continue;
    }
    parts.push(text);
    packed.tokens += cost;
    packed.included.push(file.path);
  }
  packed.text = parts.join("\n\n");
  return packed;
}
