import { type Kysely, type Migration, sql } from "kysely";

export const ruleSettings: Migration = {
  async up(db: Kysely<unknown>) {
    // The team rules (`.argus/rules/*.yml`) a repository's latest review read from its pull
    // request's base commit, as loaded and as refused with their errors, for the settings page
    // (docs/decisions/033). The switches of the built-in rule families are settings values
    // (category built_in_rules) and need no table of their own.
    await db.schema
      .createTable("repository_rules")
      .addColumn("project_id", "uuid", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
      .addColumn("folder", "text", (c) => c.notNull())
      .addColumn("base_sha", "text", (c) => c.notNull())
      .addColumn("rules", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn("invalid", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn("read_at", "timestamptz", (c) => c.notNull())
      .execute();
  },
};
