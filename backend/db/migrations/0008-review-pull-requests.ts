import { type Kysely, type Migration, sql } from "kysely";

export const reviewPullRequests: Migration = {
  async up(db: Kysely<unknown>) {
    // What the review engine remembers of a pull request between runs: paused by `@bot pause`,
    // the head it last reviewed (the next review starts there), and its title and link for the
    // run pages.
    await db.schema
      .createTable("review_pull_requests")
      .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("pull_request", "integer", (c) => c.notNull())
      .addColumn("paused", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("last_reviewed_sha", "text")
      .addColumn("title", "text")
      .addColumn("url", "text")
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("review_pull_requests_pkey", ["project_id", "pull_request"])
      .execute();

    // Every finding of a run and what became of it; written with the review it was posted in,
    // so a retried run sees what it already posted.
    await db.schema
      .createTable("review_findings")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("run_id", "uuid", (c) => c.notNull().references("review_runs.id").onDelete("cascade"))
      .addColumn("fingerprint", "text", (c) => c.notNull())
      .addColumn("delivery", "text", (c) => c.notNull())
      .addColumn("finding", "jsonb", (c) => c.notNull())
      .addUniqueConstraint("review_findings_run_fingerprint", ["run_id", "fingerprint"])
      .addCheckConstraint(
        "review_findings_delivery",
        sql`delivery in ('inline', 'summary', 'duplicate', 'not_posted')`,
      )
      .execute();
    await db.schema
      .createIndex("review_runs_org_queued_idx")
      .on("review_runs")
      .columns(["org_id", "queued_at"])
      .execute();
  },
};
