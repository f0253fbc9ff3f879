/**
 * A line diff for the sandbox: two texts of a file become its `patch` in GitHub's "list pull
 * request files" shape (hunks with three lines of context, no file headers), so the sandbox's
 * ReviewHost answers exactly what GitHub's would. A longest-common-subsequence diff: the sample
 * files are small, so its quadratic table costs nothing.
 */

export const CONTEXT_LINES = 3;

interface Op {
  kind: " " | "-" | "+";
  text: string;
  /** The 1-based number of this line, or of the next one, on each side. */
  oldLine: number;
  newLine: number;
}

/** A text's lines; the newline that ends the last one does not start another. */
export function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function operations(before: readonly string[], after: readonly string[]): Op[] {
  const n = before.length;
  const m = after.length;
  // common(i, j): the length of the longest common subsequence of before[i..] and after[j..].
  const table = new Uint32Array((n + 1) * (m + 1));
  const common = (i: number, j: number) => table[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        before[i] === after[j] ? common(i + 1, j + 1) + 1 : Math.max(common(i + 1, j), common(i, j + 1));
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const at = { oldLine: i + 1, newLine: j + 1 };
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: " ", text: before[i] ?? "", ...at });
      i++;
      j++;
    } else if (i < n && (j === m || common(i + 1, j) >= common(i, j + 1))) {
      // Removals before additions, as git writes a changed line.
      ops.push({ kind: "-", text: before[i] ?? "", ...at });
      i++;
    } else {
      ops.push({ kind: "+", text: after[j] ?? "", ...at });
      j++;
    }
  }
  return ops;
}

/** Runs of operations to show: each change with up to `context` unchanged lines around it. */
function hunkRanges(ops: readonly Op[], context: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  ops.forEach((op, index) => {
    if (op.kind === " ") return;
    const start = Math.max(0, index - context);
    const end = Math.min(ops.length - 1, index + context);
    const last = ranges.at(-1);
    // Touching or overlapping hunks are one hunk, as in `git diff`.
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  });
  return ranges;
}

/** A hunk side's start: with no lines on that side, the line before which nothing is (0 for none). */
const startOf = (first: number, count: number) => (count === 0 ? first - 1 : first);
const rangeText = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);

export interface FilePatch {
  /** Hunks in unified format without file headers; "" when the texts have the same lines. */
  patch: string;
  additions: number;
  deletions: number;
}

/** The patch from `before` to `after`; null for a side where the file does not exist. */
export function filePatch(before: string | null, after: string | null, context = CONTEXT_LINES): FilePatch {
  const ops = operations(linesOf(before ?? ""), linesOf(after ?? ""));
  const hunks = hunkRanges(ops, context).map(([from, to]) => {
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    const first = slice[0] as Op;
    const header = `@@ -${rangeText(startOf(first.oldLine, oldCount), oldCount)} +${rangeText(startOf(first.newLine, newCount), newCount)} @@`;
    return [header, ...slice.map((op) => `${op.kind}${op.text}`)].join("\n");
  });
  return {
    patch: hunks.join("\n"),
    additions: ops.filter((op) => op.kind === "+").length,
    deletions: ops.filter((op) => op.kind === "-").length,
  };
}
