import { type Kysely, type Migration, sql } from "kysely";

export const identityAndSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("organizations")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable("users")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("firebase_uid", "text", (c) => c.notNull().unique())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("avatar_url", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex("users_org_id_idx").on("users").column("org_id").execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("auth_time", "timestamptz", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("revoked_at", "timestamptz")
      .execute();
    await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

    await db.schema
      .createTable("signing_keys")
      .addColumn("kid", "text", (c) => c.primaryKey())
      .addColumn("use", "text", (c) => c.notNull().unique())
      .addColumn("algorithm", "text", (c) => c.notNull())
      .addColumn("public_jwk", "text", (c) => c.notNull())
      .addColumn("private_jwk", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable("projects")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("integration_key", "text", (c) => c.notNull())
      .addColumn("integration_name", "text", (c) => c.notNull())
      .addColumn("integration_type", "text", (c) => c.notNull())
      .addColumn("external_link", "text", (c) => c.notNull())
      .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("webhook_active", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("properties", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex("projects_org_integration_idx")
      .on("projects")
      .columns(["org_id", "integration_name", "integration_type"])
      .execute();
  },
};
