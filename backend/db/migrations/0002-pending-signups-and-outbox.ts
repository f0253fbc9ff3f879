import { type Kysely, type Migration, sql } from "kysely";

export const pendingSignupsAndOutbox: Migration = {
  async up(db: Kysely<unknown>) {
    // A signup's profile waits here, keyed by its Firebase identity, until the address is verified.
    await db.schema
      .createTable("pending_signups")
      .addColumn("firebase_uid", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("company", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    // clock_timestamp(), not now(): two messages of one transaction still sort in sending order.
    await db.schema
      .createTable("outbox_messages")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("recipient", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull())
      .addColumn("links", "jsonb", (c) => c.notNull())
      .addColumn("sent_at", "timestamptz", (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
      .execute();
    await db.schema
      .createIndex("outbox_messages_sent_at_idx")
      .on("outbox_messages")
      .column("sent_at")
      .execute();
  },
};
