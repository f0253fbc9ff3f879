import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "./database.ts";
import { migrateToLatest } from "./migrations.ts";

let db: Db;
beforeAll(async () => {
  db = await openDatabase({ kind: "pglite", dataDir: undefined });
  await migrateToLatest(db);
});
afterAll(() => db.destroy());

describe("PGlite dialect", () => {
  it("keeps a transaction's uncommitted writes from queries running at the same time", async () => {
    let releaseTransaction = () => {};
    const hold = new Promise<void>((resolve) => {
      releaseTransaction = resolve;
    });
    let inserted = () => {};
    const insertDone = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("organizations").values({ name: "Rolled back" }).execute();
        inserted();
        await hold;
        throw new Error("roll back");
      })
      .catch((error: Error) => error.message);

    await insertDone;
    // Queued behind the transaction; without exclusive connections it would see the row.
    const concurrentRead = db
      .selectFrom("organizations")
      .select("name")
      .where("name", "=", "Rolled back")
      .execute();
    releaseTransaction();

    expect(await transaction).toBe("roll back");
    expect(await concurrentRead).toEqual([]);
  });

  it("reports how many rows an update changed", async () => {
    await db
      .insertInto("organizations")
      .values([{ name: "Counted" }, { name: "Counted" }])
      .execute();
    const result = await db
      .updateTable("organizations")
      .set({ name: "Counted twice" })
      .where("name", "=", "Counted")
      .executeTakeFirst();
    expect(result.numUpdatedRows).toBe(2n);
  });
});
