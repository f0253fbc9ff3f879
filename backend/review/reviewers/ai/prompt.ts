/**
 * The words the AI reviewer is given (docs/review-engine.md, "AI pass"): standing rules in the
 * system prompt; the built-in findings (grounding), the repository's instructions and the numbered
 * diff in the prompt. The answer's shape is the port's schema (model-provider.ts), which every
 * provider asks for and re-validates.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import type { RepositoryInstructions } from "./instructions.ts";

export const REVIEW_SYSTEM_PROMPT = [
  "You review a pull request's diff for concrete defects only: bugs, security holes, resource leaks, race conditions, data loss.",
  "Do not report style, naming, formatting, missing tests, documentation or suggestions for improvement.",
  "Prefer not reporting over guessing: report a defect only when the diff shows it; if unsure, leave it out. An empty list is a good answer.",
  "The diff lists each file's hunks. Under __new hunk__ every line of the new version starts with its line number, then '+' for an added line or a space for an unchanged one, then the line's text. Under __old hunk__ are the removed lines, without numbers.",
  "Report only on lines of the new version, preferably added ones. For each finding give: path (as in the file header), line (the number shown before the line), quote (that line's exact text, without the number and the '+'), severity (critical: exploitable or data-destroying; major: a bug that will hit users; minor: a defect with small impact; info: worth a look), title (a few words) and message (one or two sentences: what goes wrong and when).",
  "Findings listed as already reported are known: do not report them again.",
  "Follow the repository's instructions where they are given.",
].join("\n");

/** Built-in findings shown as grounding, at most this many (the most severe, as sorted). */
export const GROUNDING_MAX = 50;

function groundingSection(findings: readonly Finding[]): string {
  if (!findings.length) return "";
  const lines = findings.slice(0, GROUNDING_MAX).map((finding) => {
    const where = finding.path ? `${finding.path}${finding.line ? `:${finding.line}` : ""}` : "pull request";
    return `- ${where} [${finding.ruleId}, ${finding.severity}] ${finding.message}`;
  });
  return ["# Already reported by the built-in reviewer", ...lines].join("\n");
}

function instructionsSection(instructions: RepositoryInstructions): string {
  const parts = [...instructions.general];
  for (const entry of instructions.byPath) {
    parts.push(`For ${entry.files.join(", ")} (${entry.path}):\n${entry.instructions.trim()}`);
  }
  return parts.length ? ["# The repository's instructions", ...parts].join("\n\n") : "";
}

/** Everything in the prompt but the diff: its size decides how much diff fits. */
export function promptPreamble(findings: readonly Finding[], instructions: RepositoryInstructions): string {
  return [instructionsSection(instructions), groundingSection(findings)].filter(Boolean).join("\n\n");
}

export function reviewPrompt(preamble: string, diff: string): string {
  return [preamble, `# The diff\n\n${diff}`].filter(Boolean).join("\n\n");
}
