import type { Kysely, Migration } from "kysely";

export const resolvedSandboxComments: Migration = {
  async up(db: Kysely<unknown>) {
    // When the review engine resolved its own line comment, its finding fixed by a push
    // (docs/decisions/061-resolving-fixed-findings.md); null while it is open.
    await db.schema.alterTable("sandbox_review_comments").addColumn("resolved_at", "timestamptz").execute();
  },
};
