import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRIAL_SEATS } from "../../shared/constants.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { SEAT_MESSAGES, seatChangeResponseSchema } from "../../shared/contract/contributors.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { bearerCalls, testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";
import type { SubscriptionsTable } from "../db/schema.ts";

const DAY_MS = 86_400_000;

type Plan = Pick<SubscriptionsTable, "plan_code" | "status"> & {
  seats_total: number;
  trial_ends_at?: Date | null;
  current_period_end?: Date | null;
};
const proTrial = (seats: number): Plan => ({
  plan_code: "pro_trial",
  status: "trialing",
  seats_total: seats,
  trial_ends_at: new Date(Date.now() + 10 * DAY_MS),
});

describe.each(TEST_DATABASE_KINDS)("seats on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.start();
  });
  afterAll(() => backends.stop());
  const { post } = bearerCalls(() => backend.app);
  const assign = (token: string, userId: string) => post(token, API_PATHS.assignSeat, { userId });
  const unassign = (token: string, userId: string) => post(token, API_PATHS.unassignSeat, { userId });

  /** An organisation with `people` contributors (straight in the database) and, unless null, a plan. */
  async function organisation(name: string, plan: Plan | null, people = 3) {
    const account = await signedInAccount(backend, name);
    // In place of the trial every new organisation starts with.
    await backend.db.deleteFrom("subscriptions").where("org_id", "=", account.orgId).execute();
    if (plan)
      await backend.db
        .insertInto("subscriptions")
        .values({ org_id: account.orgId, ...plan })
        .execute();
    const ids: string[] = [];
    for (let n = 0; n < people; n++) {
      const row = await backend.db
        .insertInto("contributors")
        .values({
          org_id: account.orgId,
          platform_type: "github",
          platform_id: `${name}-${n}`,
          name: `${name} ${n}`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return { ...account, ids };
  }

  async function stored(orgId: string) {
    const subscription = await backend.db
      .selectFrom("subscriptions")
      .select(["seats_allocated"])
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    const seated = await backend.db
      .selectFrom("contributors")
      .select("id")
      .where("org_id", "=", orgId)
      .where("seat_id", "is not", null)
      .execute();
    return { allocated: subscription?.seats_allocated, seated: seated.map((row) => row.id).sort() };
  }

  it("assigns and unassigns, answering the seat count after each change; repeating either changes nothing", async () => {
    const org = await organisation("rules", proTrial(2));
    const [a = "", b = "", c = ""] = org.ids;

    const first = await assign(org.token, a);
    expect(first.status).toBe(200);
    expect(v.parse(seatChangeResponseSchema, first.body)).toEqual({
      success: true,
      message: "Seat assigned",
      data: { total_seats: 2, allocated_seats: 1, available_seats: 1 },
    });
    const repeated = v.parse(seatChangeResponseSchema, (await assign(org.token, a)).body);
    expect(repeated.data.allocated_seats).toBe(1);

    expect((await assign(org.token, b)).body.data).toEqual({
      total_seats: 2,
      allocated_seats: 2,
      available_seats: 0,
    });
    const full = await assign(org.token, c);
    expect(full.status).toBe(409);
    expect(full.body.error).toBe(SEAT_MESSAGES.allSeatsInUse);
    expect(await stored(org.orgId)).toEqual({ allocated: 2, seated: [a, b].sort() });

    const freed = v.parse(seatChangeResponseSchema, (await unassign(org.token, a)).body);
    expect(freed).toMatchObject({
      message: "Seat unassigned",
      data: { allocated_seats: 1, available_seats: 1 },
    });
    const again = await unassign(org.token, a);
    expect(again.status).toBe(200);
    expect(again.body.data.allocated_seats).toBe(1);
    expect((await unassign(org.token, b)).body.data.allocated_seats).toBe(0);
    // Never below 0.
    expect((await unassign(org.token, b)).body.data.allocated_seats).toBe(0);
    expect(await stored(org.orgId)).toEqual({ allocated: 0, seated: [] });
  });

  it("lets a new organisation manage seats on its Pro trial, with TRIAL_SEATS of them", async () => {
    const account = await signedInAccount(backend, "new-trial");
    const row = await backend.db
      .insertInto("contributors")
      .values({ org_id: account.orgId, platform_type: "github", platform_id: "first", name: "First" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const response = await assign(account.token, row.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      total_seats: TRIAL_SEATS,
      allocated_seats: 1,
      available_seats: TRIAL_SEATS - 1,
    });
  });

  it("refuses seat management without Pro, after the trial or period ended, and when cancelled", async () => {
    const cases: [string, Plan | null, string][] = [
      ["none", null, SEAT_MESSAGES.notPro],
      ["free", { plan_code: "free", status: "active", seats_total: 1 }, SEAT_MESSAGES.notPro],
      [
        "trial-over",
        { ...proTrial(3), trial_ends_at: new Date(Date.now() - 2 * DAY_MS) },
        SEAT_MESSAGES.expired,
      ],
      [
        "period-over",
        {
          plan_code: "paid_m",
          status: "active",
          seats_total: 3,
          current_period_end: new Date(Date.now() - DAY_MS),
        },
        SEAT_MESSAGES.expired,
      ],
      ["cancelled", { plan_code: "paid_m", status: "canceled", seats_total: 3 }, SEAT_MESSAGES.expired],
    ];
    for (const [name, plan, message] of cases) {
      const org = await organisation(`refused-${name}`, plan, 1);
      for (const call of [assign, unassign]) {
        const response = await call(org.token, org.ids[0] ?? "");
        expect(response.status, name).toBe(403);
        expect(response.body.error, name).toBe(message);
      }
      expect((await stored(org.orgId)).seated).toEqual([]);
    }
    const paid = await organisation("paid", {
      plan_code: "paid_m",
      status: "active",
      seats_total: 3,
      current_period_end: new Date(Date.now() + 20 * DAY_MS),
    });
    expect((await assign(paid.token, paid.ids[0] ?? "")).status).toBe(200);
  });

  it("answers 404 for another organisation's contributor or an unknown id, and 400 for a malformed body", async () => {
    const mine = await organisation("isolated-mine", proTrial(5));
    const theirs = await organisation("isolated-theirs", proTrial(5));
    for (const id of [theirs.ids[0] ?? "", "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const response = await assign(mine.token, id);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe("Contributor not found");
    }
    expect((await assign(theirs.token, theirs.ids[0] ?? "")).status).toBe(200);
    expect((await unassign(mine.token, theirs.ids[0] ?? "")).status).toBe(404);
    expect(await stored(theirs.orgId)).toEqual({ allocated: 1, seated: [theirs.ids[0]] });
    expect(await stored(mine.orgId)).toEqual({ allocated: 0, seated: [] });
    for (const body of [{}, { userId: "" }, { userId: 42 }]) {
      expect((await post(mine.token, API_PATHS.assignSeat, body)).status).toBe(400);
    }
  });

  it("gives the last free seat to one of two concurrent assigns and refuses the other", async () => {
    const org = await organisation("race", proTrial(1), 2);
    const [a = "", b = ""] = org.ids;
    const answers = await Promise.all([assign(org.token, a), assign(org.token, b)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    expect(refused?.body.error).toBe(SEAT_MESSAGES.allSeatsInUse);
    const { allocated, seated } = await stored(org.orgId);
    expect(allocated).toBe(1);
    expect(seated).toHaveLength(1);
  });

  it("counts exactly the seats given when many assigns and unassigns race", async () => {
    const org = await organisation("crowd", proTrial(3), 8);
    const assigns = await Promise.all(org.ids.map((id) => assign(org.token, id)));
    expect(assigns.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(assigns.filter((answer) => answer.status === 409)).toHaveLength(5);

    // The same person twice at once: one seat, not two.
    const { seated } = await stored(org.orgId);
    const holder = seated[0] ?? "";
    const free = org.ids.find((id) => !seated.includes(id)) ?? "";
    await Promise.all([unassign(org.token, holder), unassign(org.token, holder)]);
    await Promise.all([assign(org.token, free), assign(org.token, free)]);
    const after = await stored(org.orgId);
    expect(after.allocated).toBe(3);
    expect(after.seated).toHaveLength(3);
    expect(after.seated).toContain(free);
    expect(after.seated).not.toContain(holder);
  });
});
