import { type Kysely, type Migration, sql } from "kysely";

export const aiModels: Migration = {
  async up(db: Kysely<unknown>) {
    // An organisation's AI model (docs/decisions/018-ai-model-settings.md): one row, none for the
    // built-in reviewer alone. The API key is stored sealed (backend/secrets/secret-box.ts), never plain.
    await db.schema
      .createTable("ai_models")
      .addColumn("org_id", "uuid", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("base_url", "text")
      .addColumn("model", "text", (c) => c.notNull())
      .addColumn("api_key_ciphertext", "text")
      .addColumn("input_token_limit", "integer", (c) => c.notNull())
      .addColumn("monthly_budget_cents", "integer")
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint("ai_models_input_token_limit", sql`input_token_limit > 0`)
      .addCheckConstraint("ai_models_monthly_budget_cents", sql`monthly_budget_cents >= 0`)
      .execute();
  },
};
