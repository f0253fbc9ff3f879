import type { SettingsResponse } from "./settings-schemas.ts";

/**
 * The review settings calls of the HTTP contract (docs/product.md#settings, #api), as zod schemas.
 * Kept beside shared/contract/ so that pages without settings never load them. What the values
 * mean and how they are inherited: docs/decisions/010-review-settings.md.
 *
 * Values live at two levels. An organisation keeps one set per code host (`integrationName`); a
 * repository keeps its own, and every key it does not set is inherited from its organisation's set
 * for the repository's code host, which in turn falls back to the template's default.
 */

/** The most keys a category's body may carry; a longer body is not a category. */
export const SETTINGS_PER_CATEGORY_MAX = 100;

export type SettingsData = SettingsResponse["data"];

/** The body as the client sends it. */
export interface SettingsUpdateRequest {
  value: Record<string, boolean | string[] | string | number | null>;
  repositoryId?: string;
}

/**
 * Exact UI text of the settings screen (docs/product.md#settings, #settings-integration-and-project-messages).
 * Apart from shared/contract/accounts.ts so that only that page loads it (docs/decisions/006-page-weight.md);
 * the backend answers a save with the same success text.
 */
export const SETTINGS = {
  repositoryTitle: "Repository Settings",
  organizationTitle: "Organization Settings",
  loading: "Loading settings...",
  noTemplates: "No settings available at this time.",
  loadFailed: "Failed to load settings",
  /** The repository view of an id no repository of the organisation has (the backend's 404 too). */
  repositoryNotFound: "Repository not found",
  templatesLoadFailed: "Failed to load settings templates",
  updateFailed: "Failed to update setting",
  /** A switch whose save failed, after it is rolled back. */
  updateLabelFailed: (label: string) => `Failed to update ${label}. Please try again.`,
  repositorySaved: "Repository setting updated successfully",
  organizationSaved: "Organization setting updated successfully",
  /** The organisation view's card when the chosen code host is not connected. */
  connectTo: (displayName: string) => `Connect to ${displayName}`,
} as const;

/**
 * The rules of a pattern-list setting (`ignored_branches`, `ignored_paths`), written once: the
 * backend refuses a save that breaks them with the same message the settings screen shows before
 * sending it. Plain functions, no schemas, so the settings page can use them without loading zod.
 */

/** The most patterns one setting holds. */
export const PATTERNS_MAX = 50;

/** The longest pattern, in characters. */
export const PATTERN_LENGTH_MAX = 200;

/** The patterns of a textarea, one a line: each trimmed, blank lines and repeats dropped. */
export function patternsFromText(text: string): string[] {
  return normalizePatterns(text.split(/\r?\n/));
}

/** Patterns as they are kept: trimmed, without blanks and repeats, in their order. */
export function normalizePatterns(patterns: readonly string[]): string[] {
  return [...new Set(patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== ""))];
}

/** The brackets a glob writer pairs: the matcher takes them literally, so an unpaired one is a typo. */
const PAIRS = { "[": "]", "{": "}" } as const;

const CLOSERS: Record<string, keyof typeof PAIRS> = { "]": "[", "}": "{" };

/**
 * Why `pattern` is not a valid glob, or null. Only `*`, `?` and `**` are special to the matcher
 * (docs/product.md#settings); a `[` or `{` left open (or a `]`, `}` never opened) would be taken
 * literally and silently match nothing the writer meant, so it is refused. Paired brackets stay
 * literal, as paths such as `pages/[id].tsx` need.
 */
function globProblem(pattern: string): string | null {
  const open: (keyof typeof PAIRS)[] = [];
  for (const char of pattern) {
    if (char === "[" || char === "{") open.push(char);
    const opener = CLOSERS[char];
    if (opener === undefined) continue;
    if (open.at(-1) !== opener) return `"${char}" closes nothing`;
    open.pop();
  }
  const unclosed = open.at(-1);
  return unclosed ? `"${unclosed}" is never closed by "${PAIRS[unclosed]}"` : null;
}

/** What is wrong with a list of (normalised) patterns for the setting `label`, or null. */
export function patternsProblem(label: string, patterns: readonly string[]): string | null {
  if (patterns.length > PATTERNS_MAX) {
    return `${label}: at most ${PATTERNS_MAX} patterns, one per line (this list has ${patterns.length})`;
  }
  const long = patterns.find((pattern) => pattern.length > PATTERN_LENGTH_MAX);
  if (long !== undefined) {
    return `${label}: a pattern is at most ${PATTERN_LENGTH_MAX} characters ("${long.slice(0, 20)}…" has ${long.length})`;
  }
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) return `${label}: "${pattern}" is not a valid glob pattern: ${problem}`;
  }
  return null;
}

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
