/**
 * Changed files for the review engine's unit tests, written as patch lines (" context", "+added",
 * "-removed") and read through the same parser as GitHub's answer.
 */

import { type DiffFile, type FileStatus, fromPullRequestFiles } from "../../backend/review/pipeline/diff.ts";
import type { Analyzer } from "../../backend/review/reviewers/builtin/analyzer.ts";
import type { Finding } from "../../shared/contract/reviews.ts";

/** One hunk whose first line is right-side line `newStart` (left side `oldStart`). */
export function hunk(lines: readonly string[], newStart = 1, oldStart = newStart): string {
  const oldLines = lines.filter((line) => !line.startsWith("+")).length;
  const newLines = lines.filter((line) => !line.startsWith("-")).length;
  return `@@ -${oldStart},${oldLines} +${newStart},${newLines} @@\n${lines.join("\n")}`;
}

/** A new file whose lines are all added. */
export function addedFile(path: string, lines: readonly string[]): DiffFile {
  return changedFile(
    path,
    hunk(
      lines.map((line) => `+${line}`),
      1,
      0,
    ),
    { status: "added" },
  );
}

export function changedFile(
  path: string,
  patch: string,
  options: { status?: FileStatus; content?: string } = {},
): DiffFile {
  const lines = patch.split("\n").filter((line) => !line.startsWith("@@"));
  const [file] = fromPullRequestFiles([
    {
      filename: path,
      status: options.status ?? "modified",
      additions: lines.filter((line) => line.startsWith("+")).length,
      deletions: lines.filter((line) => line.startsWith("-")).length,
      patch,
    },
  ]);
  if (!file) throw new Error("no file parsed");
  return options.content === undefined ? file : { ...file, content: options.content };
}

/** Runs one analyzer as reviewBuiltIn would, collecting its notes. */
export async function runAnalyzer(
  analyzer: Analyzer,
  files: readonly DiffFile[],
  maxPullRequestLines = 1000,
): Promise<{ findings: Finding[]; notes: string[] }> {
  const notes: string[] = [];
  const findings = await analyzer.run({
    files,
    maxPullRequestLines,
    related: new Map(),
    note: (text) => notes.push(text),
  });
  return { findings, notes };
}
