import { type Kysely, type Migration, sql } from "kysely";

export const sandboxChecks: Migration = {
  async up(db: Kysely<unknown>) {
    // The review's check on a sandbox pull request's head commit, as GitHub keeps a check run:
    // in progress while the review runs, then its conclusion, title and summary, linking to the run.
    await db.schema
      .createTable("sandbox_checks")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("pull_request_id", "uuid", (c) =>
        c.notNull().references("sandbox_pull_requests.id").onDelete("cascade"),
      )
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("head_sha", "text", (c) => c.notNull())
      .addColumn("conclusion", "text")
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("summary", "text", (c) => c.notNull())
      .addColumn("details_url", "text", (c) => c.notNull())
      .addColumn("started_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("completed_at", "timestamptz")
      .addCheckConstraint(
        "sandbox_checks_conclusion",
        sql`conclusion is null or conclusion in ('success', 'neutral', 'skipped')`,
      )
      .execute();
    await db.schema
      .createIndex("sandbox_checks_pull_request_idx")
      .on("sandbox_checks")
      .columns(["pull_request_id", "id"])
      .execute();
  },
};
