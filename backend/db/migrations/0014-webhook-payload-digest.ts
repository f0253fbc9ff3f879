import type { Kysely, Migration } from "kysely";

export const webhookPayloadDigest: Migration = {
  async up(db: Kysely<unknown>) {
    // The signature covers the body, not X-GitHub-Delivery: a signed body sent again under a new
    // delivery id must take effect once too, so deliveries are also unique by the body's SHA-256.
    // Deliveries recorded before, and those of hosts that send none, have no digest (NULLs differ).
    await db.schema.alterTable("webhook_deliveries").addColumn("payload_digest", "text").execute();
    await db.schema
      .createIndex("webhook_deliveries_payload_digest_key")
      .on("webhook_deliveries")
      .column("payload_digest")
      .unique()
      .execute();
  },
};
