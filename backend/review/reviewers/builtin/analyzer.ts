/**
 * What every built-in analyzer is: a name (for notes when it fails) and a function from the changed
 * files to findings. Analyzers report only on added lines (or on a file or the pull request as a
 * whole); reviewBuiltIn (index.ts) runs them, isolates their failures and orders the findings.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import type { DiffFile } from "../../pipeline/diff.ts";
import type { RelatedModules } from "./rules/imports.ts";

export interface AnalyzerInput {
  /** The files the filter kept (review/pipeline/file-filter.ts). */
  files: readonly DiffFile[];
  /** Above this many changed lines (additions + deletions of reviewed files) a pull request is oversized. */
  maxPullRequestLines: number;
  /** Texts at head of the repository modules the files import and call (rules/imports.ts). */
  related: RelatedModules;
  /** Records what an analyzer could not do (a file it could not read fully), for the run's notes. */
  note(text: string): void;
}

export interface Analyzer {
  name: string;
  run(input: AnalyzerInput): Finding[] | Promise<Finding[]>;
}

/** The file's extension, lower-case, without the dot ("" when it has none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export const SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([
  "js",
  "jsx",
  "mjs",
  "cjs",
  "ts",
  "tsx",
  "mts",
  "cts",
]);
