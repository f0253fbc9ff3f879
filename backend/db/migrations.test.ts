import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEFAULT_TRIAL_DAYS, PLAN_VALUES, TRIAL_SEATS } from "../../shared/constants.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { migrationDatabases } from "../../tests/support/migration-databases.ts";
import type { Db } from "./database.ts";
import { migrateToLatest } from "./migrations.ts";

const { open, migratedUpTo } = migrationDatabases();

async function tableNames(database: Db): Promise<string[]> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = 'public' order by tablename`.execute(database);
  return rows.map((row) => row.tablename);
}

describe.each(TEST_DATABASE_KINDS)("migrations on %s", (kind) => {
  it("create the schema once and are a no-op when run again", async () => {
    const db = await open(kind);
    await migrateToLatest(db);
    const org = await db
      .insertInto("organizations")
      .values({ name: "Acme" })
      .returning("id")
      .executeTakeFirstOrThrow();

    await migrateToLatest(db);

    expect(await tableNames(db)).toEqual(
      expect.arrayContaining([
        "organizations",
        "users",
        "sessions",
        "signing_keys",
        "projects",
        "pending_signups",
        "outbox_messages",
        "integrations",
        "webhook_deliveries",
        "subscriptions",
        "payment_sessions",
        "billing_events",
        "contributors",
        "review_runs",
        "review_decisions",
        "organization_settings",
        "repository_settings",
        "review_pull_requests",
        "review_findings",
        "sandbox_commits",
        "sandbox_pull_requests",
        "sandbox_reviews",
        "sandbox_review_comments",
        "ai_models",
        "finding_feedback",
        "sandbox_comment_reactions",
        "model_call_windows",
        "repository_rules",
        "auth_rate_limit_windows",
        "read_versions",
      ]),
    );
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(applied.rows.map((row) => row.name)).toEqual([
      "0001_identity_and_sessions",
      "0002_pending_signups_and_outbox",
      "0003_integrations",
      "0004_webhook_deliveries",
      "0005_billing_and_seats",
      "0006_review_settings",
      "0007_review_engine",
      "0008_review_pull_requests",
      "0009_sandbox_pull_requests",
      "0010_ai_models",
      "0011_ai_review_usage",
      "0012_severity_threshold",
      "0013_finding_feedback",
      "0014_webhook_payload_digest",
      "0015_azure_devops_hooks",
      "0016_stripe_event_order",
      "0017_rule_settings",
      "0018_model_call_limits",
      "0019_sandbox_pull_comments",
      "0020_large_organisations",
      "0021_scale_out",
      "0022_read_versions",
      "0023_not_posted_reason",
      "0024_resolved_sandbox_comments",
      "0025_released_suppressions",
      "0026_sandbox_checks",
      "0027_finding_records_by_fingerprint",
      "0028_pull_request_titles_searched",
    ]);
    const orgs = await db.selectFrom("organizations").select(["id", "name"]).execute();
    expect(orgs).toEqual([{ id: org.id, name: "Acme" }]);
  });

  it("enforce one backend user per Firebase uid and per e-mail, and default the role to user", async () => {
    const db = await open(kind);
    await migrateToLatest(db);
    const org = await db
      .insertInto("organizations")
      .values({ name: "Acme" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const user = {
      firebase_uid: "uid-1",
      email: "a@example.com",
      name: "A",
      org_id: org.id,
      provider: "email" as const,
    };
    const inserted = await db.insertInto("users").values(user).returning("role").executeTakeFirstOrThrow();
    expect(inserted.role).toBe("user");
    await expect(
      db
        .insertInto("users")
        .values({ ...user, email: "b@example.com" })
        .execute(),
    ).rejects.toMatchObject({
      code: "23505",
    });
    await expect(
      db
        .insertInto("users")
        .values({ ...user, firebase_uid: "uid-2" })
        .execute(),
    ).rejects.toMatchObject({
      code: "23505",
    });
  });

  it("keep a subscription's allocated seats between 0 and its total", async () => {
    const fresh = await open(kind);
    await migrateToLatest(fresh);
    const org = await fresh
      .insertInto("organizations")
      .values({ name: "Acme" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await fresh
      .insertInto("subscriptions")
      .values({ org_id: org.id, plan_code: "paid_m", status: "active", seats_total: 1 })
      .execute();
    const allocate = (seats: number) =>
      fresh
        .updateTable("subscriptions")
        .set({ seats_allocated: seats })
        .where("org_id", "=", org.id)
        .execute();
    await allocate(1);
    await expect(allocate(2)).rejects.toMatchObject({ code: "23514" });
    await expect(allocate(-1)).rejects.toMatchObject({ code: "23514" });
  });

  it("start the Pro trial of organisations that existed before billing", async () => {
    const fresh = await migratedUpTo(kind, "0004_webhook_deliveries");
    const org = await fresh
      .insertInto("organizations")
      .values({ name: "Older" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const before = Date.now();
    await migrateToLatest(fresh);
    const row = await fresh
      .selectFrom("subscriptions")
      .selectAll()
      .where("org_id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      plan_code: PLAN_VALUES.proTrial,
      status: "trialing",
      seats_total: TRIAL_SEATS,
      seats_allocated: 0,
      converted_to_active: false,
    });
    const days = ((row.trial_ends_at?.getTime() ?? 0) - before) / (24 * 60 * 60 * 1000);
    expect(Math.round(days)).toBe(DEFAULT_TRIAL_DAYS);
  });
});
