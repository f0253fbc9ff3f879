import { type Kysely, type Migration, sql } from "kysely";

export const findingFeedback: Migration = {
  async up(db: Kysely<unknown>) {
    // People's 👍 and 👎 on a posted finding, per repository and fingerprint, as a run last read
    // them from the code host on `pull_request`. `suppressed_at`: when a 👎 was first seen; from
    // then on the fingerprint is not posted in this repository (decision 021), even if the 👎 is
    // taken back.
    await db.schema
      .createTable("finding_feedback")
      .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("fingerprint", "text", (c) => c.notNull())
      .addColumn("pull_request", "integer", (c) => c.notNull())
      .addColumn("thumbs_up", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("thumbs_down", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("suppressed_at", "timestamptz")
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("finding_feedback_pkey", ["project_id", "fingerprint"])
      .execute();
    await db.schema.alterTable("review_findings").dropConstraint("review_findings_delivery").execute();
    await db.schema
      .alterTable("review_findings")
      .addCheckConstraint(
        "review_findings_delivery",
        sql`delivery in ('inline', 'summary', 'duplicate', 'not_posted', 'shadow', 'suppressed')`,
      )
      .execute();
    // The sandbox code host's reactions on its review comments, one per person and content, as
    // GitHub keeps them.
    await db.schema
      .createTable("sandbox_comment_reactions")
      .addColumn("comment_id", "integer", (c) =>
        c.notNull().references("sandbox_review_comments.id").onDelete("cascade"),
      )
      .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("sandbox_comment_reactions_pkey", ["comment_id", "user_id", "content"])
      .addCheckConstraint("sandbox_comment_reactions_content", sql`content in ('+1', '-1')`)
      .execute();
  },
};
