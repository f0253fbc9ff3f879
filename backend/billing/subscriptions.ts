/**
 * The subscriptions row of an organisation and how it moves: a new organisation starts a Pro trial;
 * a trial that ran out without payment falls to Free (status paused, seats released); a paid
 * checkout makes it Pro; a cancellation whose date has passed makes it canceled. Moves that depend
 * on time happen when the row is read, against the billing clock, each one conditional UPDATE so
 * concurrent readers apply it once.
 */
import { type Selectable, sql } from "kysely";
import { PLAN_VALUES, TRIAL_SEATS } from "../../shared/constants.ts";
import type { Db } from "../db/database.ts";
import { cachedRead, type ReadCacheKind, type ReadVersion } from "../db/read-cache.ts";
import type { PaymentSessionsTable } from "../db/schema.ts";
import { addDays, type Clock, startOfUtcDay } from "./clock.ts";
import type { SubscriptionRow } from "./subscription-view.ts";

/** How a new organisation's trial is made: from the billing clock, this many days long. */
export interface TrialTerms {
  clock: Clock;
  days: number;
}

/** Runs in the transaction that creates the organisation (auth/accounts.ts). */
export async function startTrial(trx: Db, orgId: string, terms: TrialTerms): Promise<void> {
  const now = terms.clock();
  await trx
    .insertInto("subscriptions")
    .values({
      org_id: orgId,
      plan_code: PLAN_VALUES.proTrial,
      status: "trialing",
      seats_total: TRIAL_SEATS,
      trial_ends_at: addDays(now, terms.days),
      updated_at: now,
    })
    .execute();
}

/** Every contributor of the organisation gives up their seat. */
export async function releaseSeats(trx: Db, orgId: string): Promise<void> {
  await trx
    .updateTable("contributors")
    .set({ seat_id: null, seat_assigned_at: null })
    .where("org_id", "=", orgId)
    .where("seat_id", "is not", null)
    .execute();
}

/**
 * A trial is over once its last day has passed (subscription-view.ts counts calendar days): Free,
 * paused (no payment method), no seats, not converted.
 */
async function endLapsedTrial(db: Db, orgId: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable("subscriptions")
      .set({
        plan_code: PLAN_VALUES.free,
        status: "paused",
        seats_total: 0,
        seats_allocated: 0,
        converted_to_active: false,
        pending_quantity: null,
        pending_plan_code: null,
        updated_at: now,
      })
      .where("org_id", "=", orgId)
      .where("plan_code", "=", PLAN_VALUES.proTrial)
      .where("trial_ends_at", "<", startOfUtcDay(now))
      .returning("org_id")
      .executeTakeFirst();
    if (ended) await releaseSeats(trx, orgId);
  });
}

/** A scheduled cancellation whose last day has passed ends the subscription and its seats. */
async function endCancelledSubscription(db: Db, orgId: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable("subscriptions")
      .set({ status: "canceled", seats_allocated: 0, updated_at: now })
      .where("org_id", "=", orgId)
      .where("plan_code", "=", PLAN_VALUES.paid)
      .where("status", "!=", "canceled")
      .where("cancel_at", "<", startOfUtcDay(now))
      .returning("org_id")
      .executeTakeFirst();
    if (ended) await releaseSeats(trx, orgId);
  });
}

/** Whether time has made a move due on this row: the same conditions as the UPDATEs above. */
function moveDue(row: SubscriptionRow, now: Date): boolean {
  const today = startOfUtcDay(now);
  const trialLapsed =
    row.plan_code === PLAN_VALUES.proTrial && row.trial_ends_at !== null && row.trial_ends_at < today;
  const cancellationPassed =
    row.plan_code === PLAN_VALUES.paid &&
    row.status !== "canceled" &&
    row.cancel_at !== null &&
    row.cancel_at < today;
  return trialLapsed || cancellationPassed;
}

/**
 * Read by every subscription and seat call; answered from memory until the next write (on a
 * Postgres server, for the calls that pass the read version of their session check).
 */
const SUBSCRIPTION_ROWS: ReadCacheKind = { tables: ["subscriptions"] };

const subscriptionRow = (db: Db, orgId: string, asOf?: ReadVersion) =>
  cachedRead(
    db,
    SUBSCRIPTION_ROWS,
    orgId,
    () => db.selectFrom("subscriptions").selectAll().where("org_id", "=", orgId).executeTakeFirst(),
    asOf,
  );

/**
 * The organisation's row as of `now`, after the moves time has made; undefined when it has none.
 * Read first: most reads find no move due and cost one query, not two transactions and a query.
 * `asOf`: the read version the caller's session check read, which lets a Postgres server answer
 * from memory (db/read-cache.ts).
 */
export async function currentSubscription(
  db: Db,
  orgId: string,
  now: Date,
  asOf?: ReadVersion,
): Promise<SubscriptionRow | undefined> {
  const row = await subscriptionRow(db, orgId, asOf);
  if (!row || !moveDue(row, now)) return row;
  await endLapsedTrial(db, orgId, now);
  await endCancelledSubscription(db, orgId, now);
  // Not under `asOf`: the moves just written are newer than it.
  return subscriptionRow(db, orgId);
}

/** What the billing provider says a paid session bought. */
export interface PaidSession {
  subscriptionId: string;
  customerId: string | null;
  /** Null: the period does not move (a seat change). */
  periodEnd: Date | null;
}

type PaymentSession = Pick<Selectable<PaymentSessionsTable>, "id" | "org_id" | "quantity" | "plan_code">;

/**
 * Applies a paid session once: the conditional UPDATE on `processed_at` lets exactly one of any
 * number of concurrent validations through; the others get false and change nothing.
 */
export async function applyPaidSession(
  db: Db,
  session: PaymentSession,
  paid: PaidSession,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("payment_sessions")
      .set({ processed_at: now, status: "complete" })
      .where("id", "=", session.id)
      .where("processed_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!claimed) return false;
    await trx
      .updateTable("subscriptions")
      .set({
        plan_code: session.plan_code,
        status: "active",
        // Seats assigned while the payment was open stay assigned: never fewer seats than holders.
        seats_total: sql<number>`greatest(${session.quantity}, seats_allocated)`,
        current_period_end: paid.periodEnd ?? sql<Date | null>`current_period_end`,
        converted_to_active: true,
        cancel_at: null,
        pending_quantity: null,
        pending_plan_code: null,
        stripe_subscription_id: paid.subscriptionId,
        stripe_customer_id: paid.customerId ?? sql<string | null>`stripe_customer_id`,
        updated_at: now,
      })
      .where("org_id", "=", session.org_id)
      .execute();
    return true;
  });
}
