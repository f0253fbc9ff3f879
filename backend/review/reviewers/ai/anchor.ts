/**
 * The anchor check (docs/review-engine.md, "AI pass"): a model's finding counts only where the line
 * it quotes is at the line it names in the head commit. Models misnumber lines and invent code;
 * checking the quote against the diff (or the file at head) keeps a comment from landing on the
 * wrong line and drops findings about code that is not there.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import type { RightSideIndex } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import type { ModelFinding } from "./model-provider.ts";

/**
 * Every AI finding has this rule id. The model's titles and severities vary between runs; a fixed
 * id makes the fingerprint path and line text only, so a re-run of the same diff posts nothing new.
 */
export const AI_RULE_ID = "ai/review";

/** anchored: may go inline. moved: the quote is in the file elsewhere, or outside the diff. */
export type AnchorOutcome = "anchored" | "moved" | "dropped";

export interface AnchorResult {
  outcome: AnchorOutcome;
  /** For the log: where the model said, and why a finding was moved or dropped. */
  path: string;
  line: number;
  reason?: string;
  /** The finding as posted; absent when dropped. */
  finding?: Finding;
}

const normalise = (text: string) => text.trim().replace(/\s+/g, " ");

/** The lines of a file at head, 1-based by index + 1. */
const linesOf = (content: string) => content.split(/\r?\n/);

function message(model: ModelFinding): string {
  return `${model.title.trim()}: ${model.message.trim()}`;
}

/**
 * `contents`: the whole text at head of the files the diff alone could not confirm (fetched by the
 * caller), to tell a quote that is elsewhere in the file from one that is nowhere.
 */
export function anchorFinding(
  model: ModelFinding,
  index: RightSideIndex,
  contents: ReadonlyMap<string, string>,
): AnchorResult {
  const base = { path: model.path, line: model.line };
  const quote = normalise(model.quote);
  if (!quote) return { ...base, outcome: "dropped", reason: "no quote" };
  const make = (line: number, text: string, onLine: boolean): Finding => {
    const finding = createFinding({
      ruleId: AI_RULE_ID,
      severity: model.severity,
      source: "ai",
      path: model.path,
      message: onLine ? message(model) : `Line ${line}: ${message(model)}`,
      at: { line, text },
    });
    return onLine ? finding : { ...finding, line: null, quote: null };
  };

  const diffText = index.text(model.path, model.line);
  if (diffText !== undefined && normalise(diffText) === quote) {
    return { ...base, outcome: "anchored", finding: make(model.line, diffText, true) };
  }
  const content = contents.get(model.path);
  if (content === undefined) return { ...base, outcome: "dropped", reason: "quote not in the diff" };
  const lines = linesOf(content);
  const named = lines[model.line - 1];
  if (named !== undefined && normalise(named) === quote) {
    return {
      ...base,
      outcome: "moved",
      reason: "line outside the diff",
      finding: make(model.line, named, false),
    };
  }
  const found = lines.findIndex((text) => normalise(text) === quote);
  if (found >= 0) {
    return {
      ...base,
      outcome: "moved",
      reason: `quote is at line ${found + 1}`,
      finding: make(found + 1, lines[found] as string, false),
    };
  }
  return { ...base, outcome: "dropped", reason: "quote not in the file" };
}

/** Paths whose findings the diff alone cannot confirm: the caller fetches their text at head. */
export function pathsToConfirm(findings: readonly ModelFinding[], index: RightSideIndex): string[] {
  const paths = findings
    .filter((model) => {
      const text = index.text(model.path, model.line);
      return text === undefined || normalise(text) !== normalise(model.quote);
    })
    .map((model) => model.path);
  return [...new Set(paths)];
}
