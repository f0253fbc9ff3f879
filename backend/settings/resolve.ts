/**
 * How a setting gets its value (docs/decisions/010-review-settings.md): the repository's own value,
 * else its organisation's for the repository's code host, else the template's default. Pure: the
 * stored rows come in, the answer's shapes go out.
 */

import type { SettingsLevel } from "../../shared/contract/settings.ts";
import {
  choiceProblem,
  normalizePatterns,
  normalizeText,
  numberProblem,
  patternsProblem,
  textProblem,
} from "../../shared/contract/settings.ts";
import {
  SETTINGS_CATALOGUE,
  type SettingCategoryDefinition,
  type SettingItemDefinition,
  type SettingSource,
} from "../../shared/settings-catalogue.ts";
import type { StoredSettingValues } from "../db/schema.ts";

/** Stored category values by category name. */
export type StoredCategories = ReadonlyMap<string, StoredSettingValues>;

/** A value as answers carry it. */
export type Value = boolean | string[] | string | number;

/**
 * A stored value that still counts: one of the item's type. Anything else (a key no longer in the
 * template, a value of another type) is as good as absent, and a save of the category drops it.
 */
function storedValue(
  item: SettingItemDefinition,
  stored: StoredSettingValues | undefined,
): Value | undefined {
  const value = stored && Object.hasOwn(stored, item.key) ? stored[item.key] : undefined;
  switch (item.type) {
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "patterns":
      return isStringList(value) ? value : undefined;
    default:
      return scalarProblem(item, value) === null ? (value as string | number) : undefined;
  }
}

/** What is wrong with `value` for a choice, number or text setting (shared/contract/settings.ts), or null. */
function scalarProblem(
  item: Extract<SettingItemDefinition, { type: "choice" | "number" | "text" }>,
  value: unknown,
): string | null {
  switch (item.type) {
    case "choice":
      return choiceProblem(item, value);
    case "number":
      return numberProblem(item, value);
    case "text":
      return textProblem(item, value);
  }
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === "string");

/** The template's default, as a value of its own (a list is copied, not shared). */
const defaultOf = (item: SettingItemDefinition): Value =>
  item.type === "patterns" ? [...item.value] : item.value;

/** One category at one level, in the answer's shapes. */
export interface ResolvedCategory {
  /** Every key, as this level holds it: a value, or null for inherited. */
  own: Record<string, Value | null>;
  /** The value in effect. */
  settings: Record<string, Value>;
  sources: Record<string, SettingSource>;
  /** What the value would be if this level did not set it. */
  inherited: Record<string, Value>;
}

export function resolveCategory(
  category: SettingCategoryDefinition,
  level: SettingsLevel,
  organization: StoredSettingValues | undefined,
  repository: StoredSettingValues | undefined,
): ResolvedCategory {
  const resolved: ResolvedCategory = { own: {}, settings: {}, sources: {}, inherited: {} };
  for (const item of category.default_value) {
    const fromOrganization = storedValue(item, organization);
    const fromRepository = level === "repository" ? storedValue(item, repository) : undefined;
    const fromAbove = level === "repository" ? (fromOrganization ?? defaultOf(item)) : defaultOf(item);
    const own = level === "repository" ? fromRepository : fromOrganization;
    resolved.own[item.key] = own ?? null;
    resolved.inherited[item.key] = fromAbove;
    resolved.settings[item.key] = own ?? fromAbove;
    resolved.sources[item.key] =
      fromRepository !== undefined
        ? "repository"
        : fromOrganization !== undefined
          ? "organization"
          : "default";
  }
  return resolved;
}

/** Every category of `categories`, resolved, grouped the way answers group them. */
export function resolveAll(
  categories: readonly SettingCategoryDefinition[],
  level: SettingsLevel,
  organization: StoredCategories,
  repository: StoredCategories,
) {
  const settings: Record<string, Record<string, Value>> = {};
  const sources: Record<string, Record<string, SettingSource>> = {};
  const inherited: Record<string, Record<string, Value>> = {};
  for (const category of categories) {
    const name = category.setting_category;
    const resolved = resolveCategory(category, level, organization.get(name), repository.get(name));
    settings[name] = resolved.settings;
    sources[name] = resolved.sources;
    inherited[name] = resolved.inherited;
  }
  return { settings, sources, inherited };
}

/** Thrown for a category body that does not fit its template; the message says what is wrong. */
export class SettingValueError extends Error {
  override name = "SettingValueError";
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === undefined) return "nothing";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A category body checked against its template: the keys to keep at this level with their values
 * (null and absent keys are inherited, so they are not kept; pattern lists are kept normalised).
 * Throws SettingValueError naming the first unknown key or wrongly typed value, or saying which rule
 * of shared/contract/settings.ts or shared/contract/settings.ts a value breaks (text is kept trimmed).
 */
export function checkCategoryValues(
  category: SettingCategoryDefinition,
  body: Record<string, unknown>,
): Record<string, Value> {
  const kept: Record<string, Value> = {};
  for (const [key, value] of Object.entries(body)) {
    const item = category.default_value.find((candidate) => candidate.key === key);
    if (!item) {
      throw new SettingValueError(`Unknown setting "${key}" in category "${category.setting_category}"`);
    }
    if (value === null) continue;
    if (item.type === "boolean") {
      if (typeof value !== "boolean") {
        throw new SettingValueError(
          `Setting "${key}" is on or off: it takes true, false or null (inherit), not ${describeType(value)}`,
        );
      }
      kept[key] = value;
      continue;
    }
    if (item.type !== "patterns") {
      const normalized = item.type === "text" && typeof value === "string" ? normalizeText(value) : value;
      const problem = scalarProblem(item, normalized);
      if (problem) throw new SettingValueError(problem);
      kept[key] = normalized as string | number;
      continue;
    }
    if (!isStringList(value)) {
      const what = Array.isArray(value) ? "an array of other values" : describeType(value);
      throw new SettingValueError(
        `Setting "${key}" is a list of patterns: it takes an array of strings or null (inherit), not ${what}`,
      );
    }
    const patterns = normalizePatterns(value);
    const problem = patternsProblem(item.label, patterns);
    if (problem) throw new SettingValueError(problem);
    kept[key] = patterns;
  }
  return kept;
}

/** The catalogue's categories, the inactive ones only when asked for. */
export function templates(includeInactive: boolean): SettingCategoryDefinition[] {
  return SETTINGS_CATALOGUE.filter((category) => includeInactive || category.is_active);
}
