import { type Kysely, type Migration, sql } from "kysely";

export const reviewSettings: Migration = {
  async up(db: Kysely<unknown>) {
    // Review settings (docs/decisions/010-review-settings.md), one row per category and level: the
    // category's values as a JSON object, key → value, holding only the keys set at that level.
    // An organisation keeps one set per code host; a repository inherits its code host's set.
    await db.schema
      .createTable("organization_settings")
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("integration_name", "text", (c) => c.notNull())
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("value", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("organization_settings_pkey", ["org_id", "integration_name", "category"])
      .execute();
    // A repository's own values go with it when its project row goes.
    await db.schema
      .createTable("repository_settings")
      .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("value", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("repository_settings_pkey", ["project_id", "category"])
      .execute();
  },
};
