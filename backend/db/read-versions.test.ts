/**
 * The read versions of migration 0022: every committed write to a row the backends keep in memory
 * moves its organisation's counter, and only its own (docs/decisions/045-read-versions.md).
 */
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { migrationDatabases } from "../../tests/support/migration-databases.ts";
import { githubProjectRow } from "../../tests/support/project-rows.ts";
import type { Db } from "./database.ts";
import { migrateToLatest } from "./migrations.ts";

const { open } = migrationDatabases();

async function versionOf(db: Db, orgId: string): Promise<number> {
  const row = await db
    .selectFrom("read_versions")
    .select("version")
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function twoOrganisations(db: Db) {
  await migrateToLatest(db);
  const [ours, theirs] = await db
    .insertInto("organizations")
    .values([{ name: "Ours" }, { name: "Theirs" }])
    .returning("id")
    .execute();
  if (!ours || !theirs) throw new Error("no organisations");
  return { ours: ours.id, theirs: theirs.id };
}

describe.each(TEST_DATABASE_KINDS)("read versions on %s", (kind) => {
  it("move with every insert, update and delete of a cached table, for that organisation only", async () => {
    const db = await open(kind);
    const { ours, theirs } = await twoOrganisations(db);
    /** Runs `write` and says by how much each organisation's counter moved. */
    const moved = async (write: () => Promise<unknown>) => {
      const before = [await versionOf(db, ours), await versionOf(db, theirs)];
      await write();
      return [
        (await versionOf(db, ours)) - (before[0] ?? 0),
        (await versionOf(db, theirs)) - (before[1] ?? 0),
      ];
    };
    const project = await db
      .insertInto("projects")
      .values(githubProjectRow(theirs, "other"))
      .returning("id")
      .executeTakeFirstOrThrow()
      .then(() =>
        db
          .insertInto("projects")
          .values(githubProjectRow(ours, "api"))
          .returning("id")
          .executeTakeFirstOrThrow(),
      );

    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        "project renamed",
        () => db.updateTable("projects").set({ name: "api-2" }).where("id", "=", project.id).execute(),
      ],
      [
        "subscription inserted",
        () =>
          db
            .insertInto("subscriptions")
            .values({ org_id: ours, plan_code: "free", status: "active", seats_total: 0 })
            .execute(),
      ],
      [
        "subscription updated",
        () => db.updateTable("subscriptions").set({ seats_total: 3 }).where("org_id", "=", ours).execute(),
      ],
      [
        "organisation setting saved",
        () =>
          db
            .insertInto("organization_settings")
            .values({ org_id: ours, integration_name: "github", category: "review", value: "{}" })
            .execute(),
      ],
      [
        "repository setting saved",
        () =>
          db
            .insertInto("repository_settings")
            .values({ project_id: project.id, category: "review", value: "{}" })
            .execute(),
      ],
      [
        "repository rules read",
        () =>
          db
            .insertInto("repository_rules")
            .values({
              project_id: project.id,
              folder: ".argus",
              base_sha: "abc",
              rules: "[]",
              invalid: "[]",
              read_at: new Date(),
            })
            .execute(),
      ],
      ["repository setting removed", () => db.deleteFrom("repository_settings").execute()],
      ["repository rules removed", () => db.deleteFrom("repository_rules").execute()],
      ["organisation setting removed", () => db.deleteFrom("organization_settings").execute()],
      ["project removed", () => db.deleteFrom("projects").where("id", "=", project.id).execute()],
    ];
    for (const [what, write] of writes) {
      expect([what, ...(await moved(write))]).toEqual([what, 1, 0]);
    }
    // A table no cache reads from leaves the counter alone.
    expect(
      await moved(() =>
        db.updateTable("organizations").set({ name: "Ours 2" }).where("id", "=", ours).execute(),
      ),
    ).toEqual([0, 0]);
  });

  it("move when a transaction commits, not before, and not for one rolled back", async () => {
    const db = await open(kind);
    const { ours } = await twoOrganisations(db);
    const before = await versionOf(db, ours);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("projects")
        .values([githubProjectRow(ours, "a"), githubProjectRow(ours, "b")])
        .execute();
      // Deferred to the commit: not yet moved inside the transaction.
      expect(await versionOf(trx, ours)).toBe(before);
    });
    const committed = await versionOf(db, ours);
    expect(committed).toBeGreaterThan(before);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("projects").values(githubProjectRow(ours, "c")).execute();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await versionOf(db, ours)).toBe(committed);
  });
});
