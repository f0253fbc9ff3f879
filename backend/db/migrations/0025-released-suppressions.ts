import { type Kysely, type Migration, sql } from "kysely";

export const releasedSuppressions: Migration = {
  async up(db: Kysely<unknown>) {
    // The 👎 count when someone chose to post a suppressed finding again: only a 👎 beyond it
    // suppresses the finding again (docs/decisions/062-posting-a-suppressed-finding-again.md).
    await db.schema
      .alterTable("finding_feedback")
      .addColumn("released_thumbs_down", "integer", (column) => column.notNull().defaultTo(sql`0`))
      .execute();
  },
};
