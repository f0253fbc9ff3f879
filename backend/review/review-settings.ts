/**
 * The review settings the pipeline reads, by category and key as the settings catalogue
 * (shared/settings-catalogue.ts) names them. The app reads them with the settings module's
 * `effectiveSettings(db, orgId, projectId)` (the repository's values, else its organisation's, else
 * the catalogue's defaults); tests pass a reader of their own.
 */
import type { EffectiveSettings } from "../../shared/settings-catalogue.ts";
import type { Db } from "../db/database.ts";

export type ReviewSettings = Pick<
  EffectiveSettings,
  "account_preferences" | "review_scope" | "comment_style" | "built_in_rules"
>;

export type ReviewSettingsReader = (db: Db, orgId: string, projectId: string) => Promise<ReviewSettings>;
