import { type Kysely, type Migration, sql } from "kysely";
import { DEFAULT_TRIAL_DAYS, PLAN_VALUES, TRIAL_SEATS } from "../../../shared/constants.ts";

export const billingAndSeats: Migration = {
  async up(db: Kysely<unknown>) {
    // One subscription per organisation. The seat counter lives on this row so that an assign
    // is one conditional UPDATE under the row lock; the checks keep it within 0..seats_total
    // whatever the code above does.
    await db.schema
      .createTable("subscriptions")
      .addColumn("org_id", "uuid", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
      .addColumn("plan_code", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("seats_total", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("seats_allocated", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("trial_ends_at", "timestamptz")
      .addColumn("current_period_end", "timestamptz")
      .addColumn("converted_to_active", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("cancel_at", "timestamptz")
      .addColumn("pending_quantity", "integer")
      .addColumn("pending_plan_code", "text")
      .addColumn("credit_balance_cents", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("stripe_customer_id", "text")
      .addColumn("stripe_subscription_id", "text", (c) => c.unique())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint(
        "subscriptions_seats_allocated_range",
        sql`seats_allocated between 0 and seats_total`,
      )
      .execute();

    // Checkout and seat-update sessions, Stripe's or the sandbox's; `processed_at` makes applying
    // one idempotent.
    await db.schema
      .createTable("payment_sessions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("plan_code", "text", (c) => c.notNull())
      .addColumn("quantity", "integer", (c) => c.notNull())
      .addColumn("unit_amount", "integer", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("customer_email", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("processed_at", "timestamptz")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex("payment_sessions_org_id_idx")
      .on("payment_sessions")
      .column("org_id")
      .execute();

    // Stripe events already applied, by event id: a replayed delivery changes nothing.
    await db.schema
      .createTable("billing_events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    // People active on the organisation's repositories, imported or added by username. A seat is
    // held while `seat_id` is set; subscriptions.seats_allocated counts them.
    await db.schema
      .createTable("contributors")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("platform_type", "text", (c) => c.notNull())
      .addColumn("platform_id", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text")
      .addColumn("avatar_url", "text")
      .addColumn("role", "text")
      .addColumn("last_git_activity", "timestamptz")
      .addColumn("seat_id", "uuid")
      .addColumn("seat_assigned_at", "timestamptz")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint("contributors_org_platform_key", ["org_id", "platform_type", "platform_id"])
      .execute();

    // Organisations made before billing start the Pro trial a new one gets (billing/subscriptions.ts),
    // with the default length: the migration cannot read TRIAL_DAYS.
    await sql`
      insert into subscriptions (org_id, plan_code, status, seats_total, trial_ends_at)
      select id, ${sql.lit(PLAN_VALUES.proTrial)}, 'trialing', ${sql.lit(TRIAL_SEATS)},
        now() + make_interval(days => ${sql.lit(DEFAULT_TRIAL_DAYS)})
      from organizations
    `.execute(db);
  },
};
