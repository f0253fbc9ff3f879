import type { Kysely, Migration } from "kysely";

export const scaleOut: Migration = {
  async up(db: Kysely<unknown>) {
    // The gateways' /auth rate limit, counted here so that every gateway counts the same hits
    // (docs/decisions/042-scale-out.md): one row per client key and fixed window.
    await db.schema
      .createTable("auth_rate_limit_windows")
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("window_start", "timestamptz", (c) => c.notNull())
      .addColumn("hits", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("auth_rate_limit_windows_pkey", ["key", "window_start"])
      .execute();
    await db.schema
      .createIndex("auth_rate_limit_windows_start_idx")
      .on("auth_rate_limit_windows")
      .column("window_start")
      .execute();
  },
};
