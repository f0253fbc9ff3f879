/**
 * Reads a model's answer as a review: JSON (also inside a ```json fence or with words around it,
 * which many local models add despite the schema), validated with `modelReviewSchema`. What is
 * wrong is said in words the repair request sends back to the model and the final error repeats.
 */
import type { z } from "zod";
import { type ModelReview, modelReviewSchema } from "./model-provider.ts";

export type AnswerReading = { ok: true; review: ModelReview } | { ok: false; problem: string };

/** How many schema issues a problem names: enough to repair, short enough to read in a log. */
const ISSUES_NAMED = 3;

const FENCED = /```(?:json)?\s*\n?([\s\S]*?)```/i;

/** The text itself, else a fenced block's content, else the outermost braces; undefined if none parse. */
const parseLenient = (text: string): unknown => {
  const candidates = [text.trim()];
  const fenced = FENCED.exec(text)?.[1];
  if (fenced !== undefined) candidates.push(fenced.trim());
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start !== -1 && end > start) candidates.push(text.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // The next candidate may parse.
    }
  }
  return undefined;
};

const describeIssues = (issues: readonly z.core.$ZodIssue[]): string => {
  const named = issues.slice(0, ISSUES_NAMED).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "the answer";
    return `${where}: ${issue.message}`;
  });
  const more = issues.length > ISSUES_NAMED ? ` (and ${issues.length - ISSUES_NAMED} more)` : "";
  return `${named.join("; ")}${more}`;
};

export const readAnswer = (text: string): AnswerReading => {
  if (text.trim() === "") return { ok: false, problem: "the answer is empty" };
  const value = parseLenient(text);
  if (value === undefined) return { ok: false, problem: "the answer is not JSON" };
  const parsed = modelReviewSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      problem: `the JSON does not match the schema: ${describeIssues(parsed.error.issues)}`,
    };
  return { ok: true, review: parsed.data };
};

/** The follow-up message of the one repair request, after the model's invalid answer. */
export const repairInstruction = (problem: string): string =>
  `Your answer could not be used: ${problem}. Answer again with only the corrected JSON object ` +
  `(the same findings, fixed to match the schema: {"findings": [{"path", "line", "quote", "severity", "title", "message"}]}), ` +
  "with no text or code fence around it.";
