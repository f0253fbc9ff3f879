import { type Kysely, type Migration, sql } from "kysely";

export const modelCallLimits: Migration = {
  async up(db: Kysely<unknown>) {
    // How many times each organisation called its AI model in a fixed window, per purpose (a
    // connection test, a review's AI pass): the limits hold across every backend process on the
    // database (docs/decisions/030-model-outbound-calls.md). A window's row is replaced by the
    // next window's, so an organisation keeps one row per purpose.
    await db.schema
      .createTable("model_call_windows")
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("window_start", "timestamptz", (c) => c.notNull())
      .addColumn("calls", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("model_call_windows_pkey", ["org_id", "purpose", "window_start"])
      .addCheckConstraint("model_call_windows_purpose", sql`purpose in ('test', 'review')`)
      .addCheckConstraint("model_call_windows_calls", sql`calls > 0`)
      .execute();
  },
};
