import { type Kysely, type Migration, sql } from "kysely";

export const webhookDeliveries: Migration = {
  async up(db: Kysely<unknown>) {
    // GitHub may deliver an event again (redelivery, retries); its X-GitHub-Delivery id is kept so
    // a delivery takes effect once.
    await db.schema
      .createTable("webhook_deliveries")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
