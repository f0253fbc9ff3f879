/**
 * Prepared reads give each call its own values in the places the query was built for, on either
 * database; on a Postgres server they run as named statements (planned once per connection), the
 * session check among them, while every other statement stays unnamed.
 */
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { testBackends } from "../../tests/support/test-backend.ts";
import { authenticateSession } from "../auth/sessions.ts";
import { type Db, openDatabase } from "./database.ts";
import { preparedRead } from "./prepared-statements.ts";

/** Two parameters and a fixed value, in an order of their own. */
const buildJoined = (db: Db, { first, second }: Record<"first" | "second", string>) =>
  db.selectNoFrom(
    sql<string>`${second}::text || '/' || ${first}::text || '/' || ${"fixed"}::text`.as("joined"),
  );
const joined = preparedRead("test_joined", ["first", "second"], buildJoined);

/** The names of the statements prepared on the connection `db` runs on. */
async function preparedNames(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(
    db,
  );
  return rows.map((row) => row.name);
}

describe.each(TEST_DATABASE_KINDS)("prepared reads on %s", (kind) => {
  let database: FreshDatabase | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    await database?.drop();
    db = undefined;
    database = undefined;
  });

  async function open(): Promise<Db> {
    database = await freshDatabase(kind);
    db = await openDatabase(database.target);
    return db;
  }

  it("reads with each call's own values in the places they were built for, and keeps fixed values", async () => {
    const opened = await open();
    expect(await joined(opened, { first: "a", second: "b" })).toEqual({ joined: "b/a/fixed" });
    expect(await joined(opened, { first: "c", second: "d" })).toEqual({ joined: "d/c/fixed" });
    await opened.transaction().execute(async (trx) => {
      expect(await joined(trx, { first: "e", second: "f" })).toEqual({ joined: "f/e/fixed" });
    });
  });

  it.runIf(kind === "postgres")(
    "runs as a named statement, and leaves every other statement unnamed",
    async () => {
      const opened = await open();
      await opened.connection().execute(async (connection) => {
        expect(await preparedNames(connection)).toEqual([]);
        await sql`select 1`.execute(connection);
        await joined(connection, { first: "a", second: "b" });
        await joined(connection, { first: "c", second: "d" });
        expect(await preparedNames(connection)).toEqual(["test_joined"]);
      });
    },
  );

  it("refuses a second name for the same statement", async () => {
    const opened = await open();
    const twin = preparedRead("test_joined_twin", ["first", "second"], buildJoined);
    await joined(opened, { first: "a", second: "b" });
    await expect(twin(opened, { first: "a", second: "b" })).rejects.toThrow(
      /already prepared as "test_joined"/,
    );
  });
});

describe.runIf(TEST_DATABASE_KINDS.includes("postgres"))("the session check on a Postgres server", () => {
  const backends = testBackends("postgres");
  afterEach(() => backends.stop());

  it("is a named statement, so the server plans it once per connection", async () => {
    const backend = await backends.start();
    const { token } = await signedInAccount(backend, "ada");
    await backend.db.connection().execute(async (connection) => {
      expect(await authenticateSession(connection, backend.tokens, token)).toBeDefined();
      expect(await preparedNames(connection)).toContain("session_check");
    });
  });
});
