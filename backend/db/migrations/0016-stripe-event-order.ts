import type { Kysely, Migration } from "kysely";

export const stripeEventOrder: Migration = {
  async up(db: Kysely<unknown>) {
    // When Stripe created the last subscription event applied to the row: Stripe does not deliver
    // events in order, so an older one arriving later (a retry) must not undo a newer one.
    await db.schema.alterTable("subscriptions").addColumn("stripe_event_at", "timestamptz").execute();
  },
};
