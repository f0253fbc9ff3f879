import { type Kysely, type Migration, sql } from "kysely";

export const severityThreshold: Migration = {
  async up(db: Kysely<unknown>) {
    // The on/off `comment_style.minor_findings` became the choice `severity_threshold`
    // (docs/decisions/020-setting-kinds-and-shadow-mode.md): on was "minor and above", off the
    // default "major and above". Only a boolean converts; a value set under the new key stays.
    for (const table of ["organization_settings", "repository_settings"]) {
      await sql`
        update ${sql.table(table)}
        set value = case jsonb_typeof(value -> 'minor_findings')
            when 'boolean' then jsonb_build_object(
              'severity_threshold',
              case when (value ->> 'minor_findings')::boolean then 'minor' else 'major' end
            )
            else '{}'::jsonb
          end || (value - 'minor_findings'),
          updated_at = now()
        where category = 'comment_style' and value ? 'minor_findings'
      `.execute(db);
    }

    // Shadow mode: a finding that would have been posted is recorded as "shadow", with where it
    // would have gone (inline or in the summary).
    await db.schema.alterTable("review_findings").dropConstraint("review_findings_delivery").execute();
    await db.schema
      .alterTable("review_findings")
      .addCheckConstraint(
        "review_findings_delivery",
        sql`delivery in ('inline', 'summary', 'duplicate', 'not_posted', 'shadow')`,
      )
      .execute();
    await db.schema.alterTable("review_findings").addColumn("shadow_delivery", "text").execute();
    await db.schema
      .alterTable("review_findings")
      .addCheckConstraint(
        "review_findings_shadow_delivery",
        sql`(delivery = 'shadow') = (shadow_delivery is not null) and shadow_delivery in ('inline', 'summary')`,
      )
      .execute();
  },
};
