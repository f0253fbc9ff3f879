/**
 * Giving a contributor a seat and taking it back (docs/product.md#seats, #seat-toggle;
 * docs/decisions/012-contributors-table-and-seats.md).
 *
 * One transaction each. It locks the organisation's subscription row first (SELECT ... FOR UPDATE),
 * then the contributor's, in the order billing uses when a plan ends and frees every seat
 * (subscription, then contributors), so neither can deadlock the other. Under that lock the seat
 * changes of one organisation run one at a time: of two assigns for the last free seat the second
 * waits, reads the committed counter and is refused, and two calls for one person find each other's
 * result (repeating is a no-op). The counter then moves by a conditional UPDATE
 * (`seats_allocated < seats_total`, or `> 0`) as a guard, and the table's CHECK (0..seats_total) is
 * the last one. PGlite runs one transaction at a time anyway.
 */
import { type Selectable, sql } from "kysely";
import type { SeatStatus } from "../../shared/contract/contributors.ts";
import { SEAT_MESSAGES, seatManagementBlock } from "../../shared/contract/contributors.ts";
import { isExpiredAt } from "../billing/subscription-view.ts";
import type { Db } from "../db/database.ts";
import type { SubscriptionsTable } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

type SubscriptionRow = Pick<
  Selectable<SubscriptionsTable>,
  | "plan_code"
  | "status"
  | "seats_total"
  | "seats_allocated"
  | "trial_ends_at"
  | "current_period_end"
  | "cancel_at"
>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_SEATS: SeatStatus = { total_seats: 0, allocated_seats: 0, available_seats: 0 };

export function seatStatusOf(row: Pick<SubscriptionRow, "seats_total" | "seats_allocated"> | undefined) {
  if (!row) return NO_SEATS;
  return {
    total_seats: row.seats_total,
    allocated_seats: row.seats_allocated,
    available_seats: row.seats_total - row.seats_allocated,
  } satisfies SeatStatus;
}

export type SeatChange = { message: string; seats: SeatStatus };

const SUBSCRIPTION_COLUMNS = [
  "plan_code",
  "status",
  "seats_total",
  "seats_allocated",
  "trial_ends_at",
  "current_period_end",
  "cancel_at",
] as const;

/** The contributor, locked for this transaction; 404 unless they belong to the organisation. */
async function lockedContributor(trx: Db, orgId: string, contributorId: string) {
  // An id that is not a uuid names nobody (and would be a cast error in the query).
  const row = UUID.test(contributorId)
    ? await trx
        .selectFrom("contributors")
        .select(["id", "seat_id"])
        .where("id", "=", contributorId)
        .where("org_id", "=", orgId)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!row) throw new HttpError(404, { error: "Contributor not found" });
  return row;
}

/** The subscription, locked for this transaction; undefined when the organisation has none. */
function lockedSubscription(trx: Db, orgId: string) {
  return trx
    .selectFrom("subscriptions")
    .select(SUBSCRIPTION_COLUMNS)
    .where("org_id", "=", orgId)
    .forUpdate()
    .executeTakeFirst();
}

/** Both rows, locked in that order; 404 for someone else's contributor, 403 when seats cannot be managed. */
async function lockedRows(trx: Db, orgId: string, contributorId: string, now: Date) {
  const row = await lockedSubscription(trx, orgId);
  const contributor = await lockedContributor(trx, orgId, contributorId);
  const block = seatManagementBlock(
    row ? { plan: { plan_code: row.plan_code }, isExpired: isExpiredAt(row, now) } : null,
  );
  if (block || !row) throw new HttpError(403, { error: block ?? SEAT_MESSAGES.notPro });
  return { subscription: row, contributor };
}

export function assignSeat(db: Db, orgId: string, contributorId: string, now: Date) {
  return db.transaction().execute(async (trx): Promise<SeatChange> => {
    const { subscription, contributor } = await lockedRows(trx, orgId, contributorId, now);
    if (contributor.seat_id) {
      return { message: "The contributor already has a seat", seats: seatStatusOf(subscription) };
    }
    const counted = await trx
      .updateTable("subscriptions")
      .set((eb) => ({ seats_allocated: eb("seats_allocated", "+", 1), updated_at: now }))
      .where("org_id", "=", orgId)
      .where((eb) => eb("seats_allocated", "<", eb.ref("seats_total")))
      .returning(["seats_total", "seats_allocated"])
      .executeTakeFirst();
    if (!counted) throw new HttpError(409, { error: SEAT_MESSAGES.allSeatsInUse });
    await trx
      .updateTable("contributors")
      .set({ seat_id: sql<string>`gen_random_uuid()`, seat_assigned_at: now, updated_at: now })
      .where("id", "=", contributor.id)
      .execute();
    return { message: "Seat assigned", seats: seatStatusOf(counted) };
  });
}

export function unassignSeat(db: Db, orgId: string, contributorId: string, now: Date) {
  return db.transaction().execute(async (trx): Promise<SeatChange> => {
    const { subscription, contributor } = await lockedRows(trx, orgId, contributorId, now);
    if (!contributor.seat_id) {
      return { message: "The contributor has no seat", seats: seatStatusOf(subscription) };
    }
    const counted = await trx
      .updateTable("subscriptions")
      .set((eb) => ({ seats_allocated: eb("seats_allocated", "-", 1), updated_at: now }))
      .where("org_id", "=", orgId)
      .where("seats_allocated", ">", 0)
      .returning(["seats_total", "seats_allocated"])
      .executeTakeFirst();
    await trx
      .updateTable("contributors")
      .set({ seat_id: null, seat_assigned_at: null, updated_at: now })
      .where("id", "=", contributor.id)
      .execute();
    // No row matched only if the counter was already 0: the seat is freed all the same.
    return { message: "Seat unassigned", seats: seatStatusOf(counted ?? subscription) };
  });
}
