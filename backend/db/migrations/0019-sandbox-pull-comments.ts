import type { Kysely, Migration } from "kysely";

export const sandboxPullComments: Migration = {
  async up(db: Kysely<unknown>) {
    // A person's comment on a sandbox pull request (a bot command among them), as GitHub holds
    // an issue comment: who wrote it. Null for what the review engine posted.
    await db.schema.alterTable("sandbox_reviews").addColumn("author", "text").execute();
  },
};
