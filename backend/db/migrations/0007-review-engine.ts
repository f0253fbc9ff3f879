import { type Kysely, type Migration, sql } from "kysely";

export const reviewEngine: Migration = {
  async up(db: Kysely<unknown>) {
    // What a delivery did (queued, coalesced, ignored and why): an event for a repository we do
    // not know is acknowledged, and this says so.
    await db.schema.alterTable("webhook_deliveries").addColumn("outcome", "text").execute();

    // One review of a pull request at one head. The partial unique indexes hold what the queue
    // promises: at most one queued and one running run per pull request, so a push during a
    // review updates the queued run instead of stacking another.
    await db.schema
      .createTable("review_runs")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("pull_request", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
      .addColumn("trigger", "text", (c) => c.notNull())
      .addColumn("command", "text")
      .addColumn("head_sha", "text")
      .addColumn("base_sha", "text")
      .addColumn("delivery_id", "text")
      .addColumn("reason", "text")
      .addColumn("findings_total", "integer")
      .addColumn("findings_posted", "integer")
      .addColumn("queued_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("started_at", "timestamptz")
      .addColumn("finished_at", "timestamptz")
      .addCheckConstraint(
        "review_runs_status",
        sql`status in ('queued', 'running', 'succeeded', 'failed', 'skipped')`,
      )
      .execute();
    await db.schema
      .createIndex("review_runs_one_queued")
      .on("review_runs")
      .columns(["project_id", "pull_request"])
      .unique()
      .where(sql.ref("status"), "=", "queued")
      .execute();
    await db.schema
      .createIndex("review_runs_one_running")
      .on("review_runs")
      .columns(["project_id", "pull_request"])
      .unique()
      .where(sql.ref("status"), "=", "running")
      .execute();
    await db.schema
      .createIndex("review_runs_pull_request_idx")
      .on("review_runs")
      .columns(["project_id", "pull_request", "queued_at"])
      .execute();

    // The run's decision log, in order (`id`): each step, its outcome and the details behind it.
    await db.schema
      .createTable("review_decisions")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("run_id", "uuid", (c) => c.notNull().references("review_runs.id").onDelete("cascade"))
      .addColumn("step", "text", (c) => c.notNull())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex("review_decisions_run_id_idx")
      .on("review_decisions")
      .columns(["run_id", "id"])
      .execute();
  },
};
