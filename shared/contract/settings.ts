/**
 * The review settings calls of the HTTP contract (docs/product.md#settings, #api): their paths,
 * messages, rules and valibot schemas, one module. What the values mean and how they are
 * inherited: docs/decisions/010-review-settings.md.
 *
 * Values live at two levels. An organisation keeps one set per code host (`integrationName`); a
 * repository keeps its own, and every key it does not set is inherited from its organisation's set
 * for the repository's code host, which in turn falls back to the template's default.
 */
import * as v from "valibot";
import { ID_MAX } from "../constants.ts";
import { API_PATHS } from "./common.ts";
import { schema } from "./schema.ts";

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
 * sending it. Plain functions, so the settings page can use them without the schemas below.
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
 * it. Plain functions, so the settings page can use them without the schemas below. The items
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

const idSchema = schema(() => v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)));

/**
 * A setting item's object: the fields every item has, then `entries`.
 */
function settingItem<const Entries extends v.ObjectEntries>(entries: Entries) {
  return v.object({ key: v.string(), label: v.string(), description: v.string(), ...entries });
}

/**
 * One setting of a template, with its default as `value`: on/off, a list of glob patterns, one of
 * its options, a whole number within bounds, or text of at most `maxLength` characters.
 */
export const settingItemSchema = schema(() =>
  v.variant("type", [
    settingItem({ type: v.literal("boolean"), value: v.boolean() }),
    settingItem({ type: v.literal("patterns"), value: v.pipe(v.array(v.string()), v.readonly()) }),
    settingItem({
      type: v.literal("choice"),
      value: v.string(),
      options: v.pipe(v.array(v.object({ value: v.string(), label: v.string() })), v.readonly()),
    }),
    settingItem({ type: v.literal("number"), value: v.number(), min: v.number(), max: v.number() }),
    settingItem({ type: v.literal("text"), value: v.string(), maxLength: v.number() }),
  ]),
);

export type SettingItem = v.InferOutput<typeof settingItemSchema>;

/** A setting category: its name, a description of several lines and its settings. */
export const settingTemplateSchema = schema(() =>
  v.object({
    setting_category: v.string(),
    description: v.string(),
    is_active: v.boolean(),
    default_value: v.array(settingItemSchema),
  }),
);

export type SettingTemplate = v.InferOutput<typeof settingTemplateSchema>;

export const settingTemplatesQuerySchema = schema(() =>
  v.object({
    includeInactive: v.optional(v.picklist(["true", "false"])),
  }),
);

export const settingTemplatesResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.array(settingTemplateSchema),
  }),
);

export type SettingTemplatesResponse = v.InferOutput<typeof settingTemplatesResponseSchema>;

/** Which set of values a call reads or writes. */
export const settingsLevelSchema = schema(() => v.picklist(["organization", "repository"]));

export type SettingsLevel = v.InferOutput<typeof settingsLevelSchema>;

/** Where a value comes from: the template's default, the organisation, or the repository itself. */
export const settingSourceSchema = schema(() => v.picklist(["default", "organization", "repository"]));

/** One setting's value: on/off, glob patterns, a choice or text, or a number. */
const settingValueSchema = schema(() => v.union([v.boolean(), v.array(v.string()), v.string(), v.number()]));

/** One category's values, key → value. */
const categoryValuesSchema = schema(() => v.record(v.string(), settingValueSchema));

/** Values grouped by category: category → key → value. */
export const settingsValuesSchema = schema(() => v.record(v.string(), categoryValuesSchema));

export type SettingsValues = v.InferOutput<typeof settingsValuesSchema>;

/**
 * GET /api/settings: the organisation's values for a code host (`integrationName`, default
 * `github`), or with `repositoryId` those of one repository of the caller's organisation (404
 * otherwise). `integrationKey` is accepted and not needed: an organisation has one connection per
 * code host, and its values outlive a reinstallation (a new key).
 */
export const settingsQuerySchema = schema(() =>
  v.object({
    repositoryId: v.optional(idSchema),
    integrationKey: v.optional(idSchema),
    integrationName: v.optional(idSchema),
  }),
);

export type SettingsQuery = v.InferOutput<typeof settingsQuerySchema>;

/** The repository a repository-level answer is about. */
export const settingsRepositorySchema = schema(() =>
  v.object({
    id: v.string(),
    name: v.string(),
    full_name: v.string(),
  }),
);

/** A rule of a repository's `.argus/rules/*.yml` that loaded (docs/decisions/033). */
export const teamRuleSchema = schema(() =>
  v.object({
    id: v.string(),
    path: v.string(),
    /** As the rule names it (TypeScript, Python, Go…). */
    language: v.string(),
    severity: v.string(),
    category: v.string(),
    cwe: v.nullable(v.string()),
    message: v.string(),
  }),
);

export type TeamRule = v.InferOutput<typeof teamRuleSchema>;

/** A rule file, or one rule of it, that did not load, and why. */
export const invalidTeamRuleSchema = schema(() =>
  v.object({
    path: v.string(),
    id: v.nullable(v.string()),
    error: v.string(),
  }),
);

export type InvalidTeamRule = v.InferOutput<typeof invalidTeamRuleSchema>;

/** The team rules the repository's latest review read, from its pull request's base commit. */
export const teamRulesSchema = schema(() =>
  v.object({
    folder: v.string(),
    baseSha: v.string(),
    readAt: v.string(),
    rules: v.array(teamRuleSchema),
    invalid: v.array(invalidTeamRuleSchema),
  }),
);

export type TeamRules = v.InferOutput<typeof teamRulesSchema>;

export const settingsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({
      level: settingsLevelSchema,
      /** The code host whose organisation values apply (a repository's own code host). */
      integrationName: v.string(),
      repository: v.nullable(settingsRepositorySchema),
      /** The values in effect, for every setting of every category: category → key → value. */
      settings: settingsValuesSchema,
      /** Where each value in `settings` comes from. */
      sources: v.record(v.string(), v.record(v.string(), settingSourceSchema)),
      /**
       * What each value would be if this level did not set it: for a repository the organisation's
       * value, for an organisation the default.
       */
      inherited: settingsValuesSchema,
      /**
       * A repository's team rules as its latest review read them; null before any review read them.
       * Absent at the organisation level: each repository has its own.
       */
      teamRules: v.optional(v.nullable(teamRulesSchema)),
    }),
  }),
);

export type SettingsResponse = v.InferOutput<typeof settingsResponseSchema>;

/** PUT /api/settings/{category}?integrationKey&integrationName (the query of GET, less the repository). */
export const settingsUpdateQuerySchema = schema(() => v.omit(settingsQuerySchema, ["repositoryId"]));

/**
 * PUT /api/settings/{category}: the whole category as this level holds it. A key with a value sets
 * it here; a key that is null, or absent, is not set here and is inherited. Each value is checked
 * against its template item (an on/off setting takes true, false or null; a pattern list an array
 * of strings or null, within the rules above; a choice, number or text null or a value within the
 * rules above), so the schema leaves it to the backend, which names the setting and what it
 * expected when refusing one.
 */
export const settingsUpdateRequestSchema = schema(() =>
  v.object({
    value: v.pipe(
      v.unknown(),
      // valibot's record takes an array, its indexes as keys: `[]` would clear the whole category.
      v.check((value) => !Array.isArray(value), "Invalid type: Expected Object but received Array"),
      v.record(idSchema, v.unknown()),
      v.check(
        (value) => Object.keys(value).length <= SETTINGS_PER_CATEGORY_MAX,
        `at most ${SETTINGS_PER_CATEGORY_MAX} settings`,
      ),
    ),
    repositoryId: v.optional(idSchema),
  }),
);

/** What a save answers: the category as it was saved, and the values now in effect. */
export const settingsUpdateResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    message: v.string(),
    data: v.object({
      category: v.string(),
      level: settingsLevelSchema,
      integrationName: v.string(),
      repositoryId: v.nullable(v.string()),
      /** Every key of the category as this level now holds it: a value, or null for inherited. */
      value: v.record(v.string(), v.nullable(settingValueSchema)),
      settings: categoryValuesSchema,
      sources: v.record(v.string(), settingSourceSchema),
      inherited: categoryValuesSchema,
    }),
  }),
);

export type SettingsUpdateResponse = v.InferOutput<typeof settingsUpdateResponseSchema>;

/** GET /api/settings/templates?includeInactive=false */
export const ACTIVE_SETTING_TEMPLATES_PATH = `${API_PATHS.settingsTemplates}?includeInactive=false`;
