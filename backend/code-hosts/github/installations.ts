/**
 * The organisations' GitHub integrations that are connected now: an uninstalled or suspended
 * installation leaves its integration inactive (webhook-route.ts), and counts for nobody.
 */
import type { Db } from "../../db/database.ts";
import { GITHUB_INTEGRATION } from "../catalogue.ts";

/** The active GitHub integrations, for a caller to narrow by organisation or by installation. */
export function activeGitHubIntegrations(db: Db) {
  return db.selectFrom("integrations").where("name", "=", GITHUB_INTEGRATION).where("is_active", "=", true);
}

/** The installation of the organisation's active GitHub connection; null while it has none. */
export async function githubInstallationOf(db: Db, orgId: string): Promise<string | null> {
  const row = await activeGitHubIntegrations(db)
    .select("integration_key")
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return row?.integration_key ?? null;
}
