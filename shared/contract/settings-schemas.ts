/** The zod schemas of shared/contract/settings.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { ID_MAX } from "../constants.ts";
import { API_PATHS } from "./common.ts";
import { SETTINGS_PER_CATEGORY_MAX } from "./settings.ts";

const idSchema = z.string().min(1).max(ID_MAX);

const settingItemFields = { key: z.string(), label: z.string(), description: z.string() };

/**
 * One setting of a template, with its default as `value`: on/off, a list of glob patterns, one of
 * its options, a whole number within bounds, or text of at most `maxLength` characters.
 */
export const settingItemSchema = z.discriminatedUnion("type", [
  z.object({ ...settingItemFields, type: z.literal("boolean"), value: z.boolean() }),
  z.object({ ...settingItemFields, type: z.literal("patterns"), value: z.array(z.string()).readonly() }),
  z.object({
    ...settingItemFields,
    type: z.literal("choice"),
    value: z.string(),
    options: z.array(z.object({ value: z.string(), label: z.string() })).readonly(),
  }),
  z.object({
    ...settingItemFields,
    type: z.literal("number"),
    value: z.number(),
    min: z.number(),
    max: z.number(),
  }),
  z.object({ ...settingItemFields, type: z.literal("text"), value: z.string(), maxLength: z.number() }),
]);

export type SettingItem = z.infer<typeof settingItemSchema>;

/** A setting category: its name, a description of several lines and its settings. */
export const settingTemplateSchema = z.object({
  setting_category: z.string(),
  description: z.string(),
  is_active: z.boolean(),
  default_value: z.array(settingItemSchema),
});

export type SettingTemplate = z.infer<typeof settingTemplateSchema>;

export const settingTemplatesQuerySchema = z.object({
  includeInactive: z.enum(["true", "false"]).optional(),
});

export const settingTemplatesResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(settingTemplateSchema),
});

export type SettingTemplatesResponse = z.infer<typeof settingTemplatesResponseSchema>;

/** Which set of values a call reads or writes. */
export const settingsLevelSchema = z.enum(["organization", "repository"]);

export type SettingsLevel = z.infer<typeof settingsLevelSchema>;

/** Where a value comes from: the template's default, the organisation, or the repository itself. */
export const settingSourceSchema = z.enum(["default", "organization", "repository"]);

/** One setting's value: on/off, glob patterns, a choice or text, or a number. */
const settingValueSchema = z.union([z.boolean(), z.array(z.string()), z.string(), z.number()]);

/** One category's values, key → value. */
const categoryValuesSchema = z.record(z.string(), settingValueSchema);

/** Values grouped by category: category → key → value. */
export const settingsValuesSchema = z.record(z.string(), categoryValuesSchema);

export type SettingsValues = z.infer<typeof settingsValuesSchema>;

/**
 * GET /api/settings: the organisation's values for a code host (`integrationName`, default
 * `github`), or with `repositoryId` those of one repository of the caller's organisation (404
 * otherwise). `integrationKey` is accepted and not needed: an organisation has one connection per
 * code host, and its values outlive a reinstallation (a new key).
 */
export const settingsQuerySchema = z.object({
  repositoryId: idSchema.optional(),
  integrationKey: idSchema.optional(),
  integrationName: idSchema.optional(),
});

export type SettingsQuery = z.infer<typeof settingsQuerySchema>;

/** The repository a repository-level answer is about. */
export const settingsRepositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  full_name: z.string(),
});

/** A rule of a repository's `.argus/rules/*.yml` that loaded (docs/decisions/033). */
export const teamRuleSchema = z.object({
  id: z.string(),
  path: z.string(),
  /** As the rule names it (TypeScript, Python, Go…). */
  language: z.string(),
  severity: z.string(),
  category: z.string(),
  cwe: z.string().nullable(),
  message: z.string(),
});

export type TeamRule = z.infer<typeof teamRuleSchema>;

/** A rule file, or one rule of it, that did not load, and why. */
export const invalidTeamRuleSchema = z.object({
  path: z.string(),
  id: z.string().nullable(),
  error: z.string(),
});

export type InvalidTeamRule = z.infer<typeof invalidTeamRuleSchema>;

/** The team rules the repository's latest review read, from its pull request's base commit. */
export const teamRulesSchema = z.object({
  folder: z.string(),
  baseSha: z.string(),
  readAt: z.string(),
  rules: z.array(teamRuleSchema),
  invalid: z.array(invalidTeamRuleSchema),
});

export type TeamRules = z.infer<typeof teamRulesSchema>;

export const settingsResponseSchema = z.object({
  success: z.boolean(),
  data: z.object({
    level: settingsLevelSchema,
    /** The code host whose organisation values apply (a repository's own code host). */
    integrationName: z.string(),
    repository: settingsRepositorySchema.nullable(),
    /** The values in effect, for every setting of every category: category → key → value. */
    settings: settingsValuesSchema,
    /** Where each value in `settings` comes from. */
    sources: z.record(z.string(), z.record(z.string(), settingSourceSchema)),
    /**
     * What each value would be if this level did not set it: for a repository the organisation's
     * value, for an organisation the default.
     */
    inherited: settingsValuesSchema,
    /**
     * A repository's team rules as its latest review read them; null before any review read them.
     * Absent at the organisation level: each repository has its own.
     */
    teamRules: teamRulesSchema.nullable().optional(),
  }),
});

export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/** PUT /api/settings/{category}?integrationKey&integrationName (the query of GET, less the repository). */
export const settingsUpdateQuerySchema = settingsQuerySchema.omit({ repositoryId: true });

/**
 * PUT /api/settings/{category}: the whole category as this level holds it. A key with a value sets
 * it here; a key that is null, or absent, is not set here and is inherited. Each value is checked
 * against its template item (an on/off setting takes true, false or null; a pattern list an array
 * of strings or null, within shared/contract/settings.ts; a choice, number or text null or a value
 * within shared/contract/settings.ts), so the schema leaves it to the backend, which names the setting
 * and what it expected when refusing one.
 */
export const settingsUpdateRequestSchema = z.object({
  value: z
    .record(idSchema, z.unknown())
    .refine((value) => Object.keys(value).length <= SETTINGS_PER_CATEGORY_MAX, {
      message: `at most ${SETTINGS_PER_CATEGORY_MAX} settings`,
    }),
  repositoryId: idSchema.optional(),
});

/** What a save answers: the category as it was saved, and the values now in effect. */
export const settingsUpdateResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  data: z.object({
    category: z.string(),
    level: settingsLevelSchema,
    integrationName: z.string(),
    repositoryId: z.string().nullable(),
    /** Every key of the category as this level now holds it: a value, or null for inherited. */
    value: z.record(z.string(), settingValueSchema.nullable()),
    settings: categoryValuesSchema,
    sources: z.record(z.string(), settingSourceSchema),
    inherited: categoryValuesSchema,
  }),
});

export type SettingsUpdateResponse = z.infer<typeof settingsUpdateResponseSchema>;

/** GET /api/settings/templates?includeInactive=false */
export const ACTIVE_SETTING_TEMPLATES_PATH = `${API_PATHS.settingsTemplates}?includeInactive=false`;
