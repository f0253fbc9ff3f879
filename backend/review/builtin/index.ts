/**
 * The built-in reviewer (docs/review-engine.md): filters the changed files, runs every analyzer on
 * what is left, and answers the findings, most severe first and one per fingerprint, with notes on
 * what was skipped or failed. An analyzer that throws costs only its own findings.
 */
import type { Finding } from "../../../shared/review-contract.ts";
import type { DiffFile } from "../diff.ts";
import { type FilterOptions, filterFiles, type SkippedFile } from "../file-filter.ts";
import { sortAndDedupe } from "../findings.ts";
import type { Analyzer } from "./analyzer.ts";
import { biomeAnalyzer } from "./biome.ts";
import { dependenciesAnalyzer } from "./dependencies.ts";
import { hygieneAnalyzer } from "./hygiene.ts";
import { markersAnalyzer } from "./markers.ts";
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
  /** The analyzers to run; all of them by default. */
  analyzers?: readonly Analyzer[];
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
}

export async function reviewBuiltIn(
  files: readonly DiffFile[],
  options: ReviewOptions = {},
): Promise<BuiltInReview> {
  const { reviewable, skipped, findings: filterFindings } = filterFiles(files, options);
  const notes: string[] = [];
  const input = {
    files: reviewable,
    maxPullRequestLines: options.maxPullRequestLines ?? DEFAULT_MAX_PULL_REQUEST_LINES,
    note: (text: string) => {
      notes.push(text);
    },
  };
  const failures: AnalyzerFailure[] = [];
  const results = await Promise.all(
    (options.analyzers ?? BUILTIN_ANALYZERS).map(async (analyzer) => {
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
  return { findings: sortAndDedupe([...filterFindings, ...results.flat()]), skipped, failures, notes };
}
