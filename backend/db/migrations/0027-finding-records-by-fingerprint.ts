import type { Kysely, Migration } from "kysely";

export const findingRecordsByFingerprint: Migration = {
  async up(db: Kysely<unknown>) {
    // What a fingerprint is (its rule, its message) is read from the runs that kept it: for each
    // finding people reacted to, across an organisation's repositories (GET /api/reviews/feedback),
    // and for a repository's suppressed findings. Without this index each lookup reads every
    // finding the repository's runs kept.
    await db.schema
      .createIndex("review_findings_fingerprint_idx")
      .on("review_findings")
      .column("fingerprint")
      .execute();
  },
};
