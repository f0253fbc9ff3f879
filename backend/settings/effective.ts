/**
 * The values the review engine acts on (docs/decisions/010-review-settings.md): every setting of the
 * catalogue, inactive categories included, typed by shared/settings-catalogue.ts.
 *
 *   const settings = await effectiveSettings(db, orgId, projectId);
 *   if (!settings.account_preferences.auto_review) return;
 */
import { type EffectiveSettings, SETTINGS_CATALOGUE } from "../../shared/settings-catalogue.ts";
import type { Db } from "../db/database.ts";
import { resolveAll } from "./resolve.ts";
import { findRepository, organizationValues, repositoryValues } from "./store.ts";

export class RepositoryNotFoundError extends Error {
  override name = "RepositoryNotFoundError";
  constructor() {
    super("Repository not found");
  }
}

/**
 * A repository's effective values: its own, else its organisation's for its code host, else the
 * defaults. Throws RepositoryNotFoundError unless `projectId` is a repository of `orgId`.
 */
export async function effectiveSettings(
  db: Db,
  orgId: string,
  projectId: string,
): Promise<EffectiveSettings> {
  const repository = await findRepository(db, orgId, projectId);
  if (!repository) throw new RepositoryNotFoundError();
  const [organization, own] = await Promise.all([
    organizationValues(db, orgId, repository.integration_name),
    repositoryValues(db, repository.id),
  ]);
  return resolveAll(SETTINGS_CATALOGUE, "repository", organization, own).settings as EffectiveSettings;
}

/** An organisation's effective values for one code host (its repositories' starting point). */
export async function organizationEffectiveSettings(
  db: Db,
  orgId: string,
  integrationName: string,
): Promise<EffectiveSettings> {
  const organization = await organizationValues(db, orgId, integrationName);
  return resolveAll(SETTINGS_CATALOGUE, "organization", organization, new Map())
    .settings as EffectiveSettings;
}
