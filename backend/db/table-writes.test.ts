import { Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";
import { embeddedWrites } from "./database.ts";
import type { Database } from "./schema.ts";
import { type WrittenTables, writtenTables } from "./table-writes.ts";

/** Compiles without a database: the classification reads only the query's tree. */
const builder = new Kysely<Database>({
  dialect: {
    createAdapter: () => ({}) as never,
    createDriver: () => ({}) as never,
    createIntrospector: () => ({}) as never,
    createQueryCompiler: () => ({}) as never,
  },
});

describe("writtenTables", () => {
  it("names the table of an insert, update or delete, and none for a select", () => {
    expect(writtenTables(builder.selectFrom("sessions").selectAll().toOperationNode())).toEqual(new Set());
    expect(
      writtenTables(
        builder
          .insertInto("projects")
          .values({} as never)
          .toOperationNode(),
      ),
    ).toEqual(new Set(["projects"]));
    expect(writtenTables(builder.updateTable("users").set({ name: "x" }).toOperationNode())).toEqual(
      new Set(["users"]),
    );
    expect(writtenTables(builder.deleteFrom("sessions").toOperationNode())).toEqual(new Set(["sessions"]));
  });

  it("counts raw SQL other than a plain select, and data-modifying WITH, as a write to every table", () => {
    expect(writtenTables(sql`select 1`.toOperationNode())).toEqual(new Set());
    expect(writtenTables(sql`update users set name = 'x'`.toOperationNode())).toBe("all");
    expect(writtenTables(sql`select 1; delete from sessions`.toOperationNode())).toBe("all");
    const withUpdate = builder
      .with("gone", (db) => db.deleteFrom("sessions").returning("id"))
      .selectFrom("gone")
      .selectAll()
      .toOperationNode();
    expect(writtenTables(withUpdate)).toBe("all");
  });
});

describe.each(TEST_DATABASE_KINDS)("table writes on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  afterEach(() => backends.stop());

  it("are reported on embedded PGlite only, before and after each write, inside transactions too", async () => {
    backend = await backends.start();
    const writes = embeddedWrites(backend.db);
    if (kind === "postgres") {
      expect(writes).toBeUndefined();
      return;
    }
    const seen: WrittenTables[] = [];
    const stop = writes?.onWrite((tables) => seen.push(tables));
    await backend.db.selectFrom("users").selectAll().execute();
    await backend.db.transaction().execute(async (trx) => {
      await trx.updateTable("users").set({ name: "x" }).where("id", "=", crypto.randomUUID()).execute();
    });
    stop?.();
    await backend.db.updateTable("users").set({ name: "y" }).where("id", "=", crypto.randomUUID()).execute();
    expect(seen).toEqual([new Set(["users"]), new Set(["users"])]);
  });
});
