import { type Kysely, type Migration, sql } from "kysely";

export const notPostedReason: Migration = {
  async up(db: Kysely<unknown>) {
    // Why a finding was not posted, for the run page (docs/decisions/060-why-a-finding-was-not-posted.md).
    // Runs recorded before keep null: their reason was never stored.
    await db.schema.alterTable("review_findings").addColumn("not_posted_reason", "text").execute();
    await db.schema
      .alterTable("review_findings")
      .addCheckConstraint(
        "review_findings_not_posted_reason",
        sql`not_posted_reason is null or (delivery = 'not_posted' and not_posted_reason in ('below_threshold', 'over_limit', 'repeat'))`,
      )
      .execute();
  },
};
