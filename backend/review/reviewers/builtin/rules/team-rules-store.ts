/**
 * What the settings page shows of a repository's team rules (docs/decisions/033): the rules its
 * latest review read from the base commit, loaded or refused (table repository_rules).
 */
import type { TeamRules as TeamRulesAnswer } from "../../../../../shared/contract/settings.ts";
import type { Db } from "../../../../db/database.ts";
import type { TeamRules } from "./team-rules.ts";

/** Keeps what a review read, replacing what an earlier one read. */
export async function recordTeamRules(
  db: Db,
  projectId: string,
  read: { folder: string; baseSha: string; readAt: Date; team: TeamRules },
): Promise<void> {
  const row = {
    folder: read.folder,
    base_sha: read.baseSha,
    rules: JSON.stringify(
      read.team.rules.map((rule) => ({
        id: rule.id,
        path: rule.path,
        language: rule.language,
        severity: rule.severity,
        category: rule.category,
        cwe: rule.cwe ?? null,
        message: rule.message,
      })),
    ),
    invalid: JSON.stringify(read.team.invalid.map((entry) => ({ ...entry, id: entry.id ?? null }))),
    read_at: read.readAt,
  };
  await db
    .insertInto("repository_rules")
    .values({ project_id: projectId, ...row })
    .onConflict((conflict) => conflict.column("project_id").doUpdateSet(row))
    .execute();
}

/** The repository's team rules as last read; null when no review has read them yet. */
export async function teamRulesOf(db: Db, projectId: string): Promise<TeamRulesAnswer | null> {
  const row = await db
    .selectFrom("repository_rules")
    .selectAll()
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    folder: row.folder,
    baseSha: row.base_sha,
    readAt: row.read_at.toISOString(),
    rules: row.rules,
    invalid: row.invalid,
  };
}
