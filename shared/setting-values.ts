/**
 * The rules of choice, number and text settings (`comment_style.severity_threshold`,
 * `comment_style.max_findings`, `review_scope.review_instructions`), written once: the backend
 * refuses a save that breaks them with the same message the settings screen shows before sending
 * it. Plain functions, no schemas, so the settings page can use them without loading zod. The items
 * are typed by what the rules read, so both the catalogue's definitions and the templates the page
 * receives fit.
 */

interface ChoiceRules {
  label: string;
  options: readonly { value: string; label: string }[];
}
interface NumberRules {
  label: string;
  min: number;
  max: number;
}
interface TextRules {
  label: string;
  maxLength: number;
}

/** What is wrong with `value` for a choice setting, or null when it is one of its options. */
export function choiceProblem(item: ChoiceRules, value: unknown): string | null {
  if (typeof value === "string" && item.options.some((option) => option.value === value)) return null;
  const values = item.options.map((option) => `"${option.value}"`);
  return `${item.label}: one of ${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

/** What is wrong with `value` for a number setting, or null when it is a whole number within bounds. */
export function numberProblem(item: NumberRules, value: unknown): string | null {
  if (typeof value === "number" && Number.isInteger(value) && value >= item.min && value <= item.max) {
    return null;
  }
  return `${item.label}: a whole number from ${item.min} to ${item.max}`;
}

/** A number field's text as the value it stands for (NaN for anything but a plain number). */
export function numberFromText(text: string): number {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** Text as it is kept: without leading and trailing blanks. */
export const normalizeText = (text: string) => text.trim();

/** What is wrong with `value` (normalised) for a text setting, or null when it fits. */
export function textProblem(item: TextRules, value: unknown): string | null {
  if (typeof value !== "string") return `${item.label}: text`;
  if (value.length <= item.maxLength) return null;
  return `${item.label}: at most ${item.maxLength} characters (this text has ${value.length})`;
}
