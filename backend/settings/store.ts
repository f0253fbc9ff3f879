/**
 * Review settings as stored (docs/decisions/010-review-settings.md): one row per category and level,
 * holding the keys set at that level. Every read is scoped to the caller's organisation.
 */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import type { StoredSettingValues } from "../db/schema.ts";
import type { StoredCategories, Value } from "./resolve.ts";

/** Our project ids are UUIDs; anything else names no repository (and would be an SQL error). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SettingsRepository {
  id: string;
  name: string;
  full_name: string;
  integration_name: string;
}

/** The repository `repositoryId` of organisation `orgId`; undefined for any other id. */
export async function findRepository(
  db: Db,
  orgId: string,
  repositoryId: string,
): Promise<SettingsRepository | undefined> {
  if (!UUID.test(repositoryId)) return undefined;
  const row = await db
    .selectFrom("projects")
    .select(["id", "name", "integration_name", "properties"])
    .where("org_id", "=", orgId)
    .where("id", "=", repositoryId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    full_name: row.properties.full_name || row.name,
    integration_name: row.integration_name,
  };
}

function byCategory(rows: { category: string; value: StoredSettingValues }[]): StoredCategories {
  return new Map(rows.map((row) => [row.category, row.value]));
}

export async function organizationValues(
  db: Db,
  orgId: string,
  integrationName: string,
): Promise<StoredCategories> {
  const rows = await db
    .selectFrom("organization_settings")
    .select(["category", "value"])
    .where("org_id", "=", orgId)
    .where("integration_name", "=", integrationName)
    .execute();
  return byCategory(rows);
}

/** A repository's own values; `projectId` must already be known to be the caller's. */
export async function repositoryValues(db: Db, projectId: string): Promise<StoredCategories> {
  const rows = await db
    .selectFrom("repository_settings")
    .select(["category", "value"])
    .where("project_id", "=", projectId)
    .execute();
  return byCategory(rows);
}

/**
 * Replaces what the organisation holds for one category and code host: one statement, so a save is
 * all or nothing, and saving the same values again changes nothing.
 */
export async function saveOrganizationCategory(
  db: Db,
  orgId: string,
  integrationName: string,
  category: string,
  values: Record<string, Value>,
): Promise<void> {
  const value = JSON.stringify(values);
  await db
    .insertInto("organization_settings")
    .values({ org_id: orgId, integration_name: integrationName, category, value })
    .onConflict((conflict) =>
      conflict
        .columns(["org_id", "integration_name", "category"])
        .doUpdateSet({ value, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/** Replaces what a repository holds for one category, like saveOrganizationCategory. */
export async function saveRepositoryCategory(
  db: Db,
  projectId: string,
  category: string,
  values: Record<string, Value>,
): Promise<void> {
  const value = JSON.stringify(values);
  await db
    .insertInto("repository_settings")
    .values({ project_id: projectId, category, value })
    .onConflict((conflict) =>
      conflict.columns(["project_id", "category"]).doUpdateSet({ value, updated_at: sql<Date>`now()` }),
    )
    .execute();
}
