import { type Kysely, type Migration, sql } from "kysely";

export const integrations: Migration = {
  async up(db: Kysely<unknown>) {
    // One row per organisation and integration of the catalogue (backend/code-hosts/catalogue.ts).
    // `secrets` holds the setup values of secret fields; answers only say whether they are set.
    await db.schema
      .createTable("integrations")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("integration_key", "text", (c) => c.notNull())
      .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("properties", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("secrets", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint("integrations_org_name_key", ["org_id", "name"])
      .execute();
    // Webhooks name an installation, not an organisation.
    await db.schema
      .createIndex("integrations_name_key_idx")
      .on("integrations")
      .columns(["name", "integration_key"])
      .execute();

    // The code host's own id of a repository: importing the same repository again updates its row.
    await db.schema.alterTable("projects").addColumn("external_id", "text").execute();
    await db.schema
      .createIndex("projects_org_integration_external_id_key")
      .on("projects")
      .columns(["org_id", "integration_name", "external_id"])
      .unique()
      .execute();
  },
};
