/**
 * Review settings (docs/product.md#settings, docs/decisions/010-review-settings.md): the templates,
 * and the values of the caller's organisation (per code host) or of one of its repositories, with
 * a repository's team rules as its latest review read them.
 */
import type { Router } from "express";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import {
  SETTINGS,
  type SettingsData,
  type SettingsLevel,
  type SettingsResponse,
  type SettingsUpdateResponse,
  type SettingTemplatesResponse,
  settingsQuerySchema,
  settingsUpdateQuerySchema,
  settingsUpdateRequestSchema,
  settingTemplatesQuerySchema,
} from "../../shared/contract/settings.ts";
import { DEFAULT_SETTINGS_PROVIDER, settingCategory } from "../../shared/settings-catalogue.ts";
import { sessionOf } from "../auth/require-session.ts";
import { catalogueEntry } from "../code-hosts/catalogue.ts";
import type { Db } from "../db/database.ts";
import { cachedRead, type ReadCacheKind } from "../db/read-cache.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { teamRulesOf } from "../review/reviewers/builtin/rules/team-rules-store.ts";
import {
  checkCategoryValues,
  resolveAll,
  resolveCategory,
  SettingValueError,
  type StoredCategories,
  templates,
  type Value,
} from "../settings/resolve.ts";
import {
  findRepository,
  organizationValues,
  repositoryValues,
  type SettingsRepository,
  saveOrganizationCategory,
  saveRepositoryCategory,
} from "../settings/store.ts";

/** Express pattern of API_PATHS.settingsCategory(category). */
const SETTINGS_CATEGORY_PATH = `${API_PATHS.settings}/:category` as const;

const repositoryNotFound = () => new HttpError(404, { error: SETTINGS.repositoryNotFound });
const invalid = (message: string) =>
  new HttpError(400, { error: message, code: ERROR_CODES.invalidRequest, message });

/** Postgres' code for a foreign-key violation: the repository went while its values were saved. */
const isForeignKeyViolation = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && error.code === "23503";

/** Whose values a call reads or writes. */
type Scope =
  | { level: "organization"; integrationName: string; repository: null }
  | { level: "repository"; integrationName: string; repository: SettingsRepository };

/**
 * The scope a call names: a repository of the caller's organisation (404 for any other), whose own
 * code host is the one that counts; else the organisation's values for `integrationName`, a code
 * host of the catalogue (400 otherwise).
 */
async function scopeOf(
  db: Db,
  orgId: string,
  query: { repositoryId?: string; integrationName?: string },
): Promise<Scope> {
  if (query.repositoryId !== undefined) {
    const repository = await findRepository(db, orgId, query.repositoryId);
    if (!repository) throw repositoryNotFound();
    if (query.integrationName !== undefined && query.integrationName !== repository.integration_name) {
      throw invalid(
        `The repository belongs to the integration "${repository.integration_name}", not "${query.integrationName}"`,
      );
    }
    return { level: "repository", integrationName: repository.integration_name, repository };
  }
  const integrationName = query.integrationName ?? DEFAULT_SETTINGS_PROVIDER;
  if (!catalogueEntry(integrationName)) throw invalid(`Unknown integration "${integrationName}"`);
  return { level: "organization", integrationName, repository: null };
}

async function storedFor(db: Db, orgId: string, scope: Scope) {
  const none: StoredCategories = new Map();
  const [organization, repository] = await Promise.all([
    organizationValues(db, orgId, scope.integrationName),
    scope.repository ? repositoryValues(db, scope.repository.id) : none,
  ]);
  return { organization, repository };
}

/**
 * The settings screen reads these on every visit; an answer is kept until the next write to the
 * values or to the repositories they belong to (on a Postgres server, of the organisation, through
 * any backend): db/read-cache.ts.
 */
const SETTINGS_ANSWERS: ReadCacheKind = {
  tables: ["organization_settings", "repository_settings", "projects", "repository_rules"],
};

/** Every category's values at the scope a call names, inactive ones too: the templates call decides what is offered. */
async function settingsAt(
  db: Db,
  orgId: string,
  query: { repositoryId?: string; integrationName?: string },
): Promise<SettingsData> {
  const scope = await scopeOf(db, orgId, query);
  const stored = await storedFor(db, orgId, scope);
  const resolved = resolveAll(templates(true), scope.level, stored.organization, stored.repository);
  const repository = scope.repository
    ? { id: scope.repository.id, name: scope.repository.name, full_name: scope.repository.full_name }
    : null;
  // A repository's own rules, as its latest review read them (docs/decisions/033).
  const teamRules = scope.repository ? { teamRules: await teamRulesOf(db, scope.repository.id) } : {};
  return {
    level: scope.level,
    integrationName: scope.integrationName,
    repository,
    ...resolved,
    ...teamRules,
  };
}

const SAVED_MESSAGES: Record<SettingsLevel, string> = {
  organization: SETTINGS.organizationSaved,
  repository: SETTINGS.repositorySaved,
};

export function settingsRouter(db: Db): Router {
  const router = strictRouter();

  router.get(API_PATHS.settingsTemplates, (req, res) => {
    const query = parseRequest(settingTemplatesQuerySchema, req.query, "query");
    const data = templates(query.includeInactive === "true").map((category) => ({
      ...category,
      default_value: [...category.default_value],
    }));
    res.json({ success: true, data } satisfies SettingTemplatesResponse);
  });

  router.get(API_PATHS.settings, async (req, res) => {
    const query = parseRequest(settingsQuerySchema, req.query, "query");
    const { org, readVersion } = sessionOf(res);
    const key = [org.id, query.repositoryId ?? "", query.integrationName ?? ""].join("\n");
    const data = await cachedRead(
      db,
      SETTINGS_ANSWERS,
      key,
      () => settingsAt(db, org.id, query),
      readVersion,
    );
    res.json({ success: true, data } satisfies SettingsResponse);
  });

  router.put(SETTINGS_CATEGORY_PATH, async (req, res) => {
    const query = parseRequest(settingsUpdateQuerySchema, req.query, "query");
    const body = parseRequest(settingsUpdateRequestSchema, req.body);
    const category = settingCategory(req.params.category ?? "");
    if (!category) throw new HttpError(404, { error: "Setting category not found" });
    const { org } = sessionOf(res);
    const scope = await scopeOf(db, org.id, { ...query, repositoryId: body.repositoryId });
    let values: Record<string, Value>;
    try {
      values = checkCategoryValues(category, body.value);
    } catch (error) {
      if (error instanceof SettingValueError) throw invalid(error.message);
      throw error;
    }

    const name = category.setting_category;
    try {
      if (scope.repository) await saveRepositoryCategory(db, scope.repository.id, name, values);
      else await saveOrganizationCategory(db, org.id, scope.integrationName, name, values);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw repositoryNotFound();
      throw error;
    }

    const stored = await storedFor(db, org.id, scope);
    const { own, ...resolved } = resolveCategory(
      category,
      scope.level,
      stored.organization.get(name),
      stored.repository.get(name),
    );
    res.json({
      success: true,
      message: SAVED_MESSAGES[scope.level],
      data: {
        category: name,
        level: scope.level,
        integrationName: scope.integrationName,
        repositoryId: scope.repository?.id ?? null,
        value: own,
        ...resolved,
      },
    } satisfies SettingsUpdateResponse);
  });

  return router;
}
