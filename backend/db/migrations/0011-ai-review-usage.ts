import { type Kysely, type Migration, sql } from "kysely";

export const aiReviewUsage: Migration = {
  async up(db: Kysely<unknown>) {
    // A run's AI pass: how it ended, the model, the tokens and the cost (micro-dollars; null when
    // no price is known), and when it was spent (the injected clock), which the monthly budget
    // sums by. Written once per run, so a run started again never counts twice.
    await db.schema
      .alterTable("review_runs")
      .addColumn("ai_outcome", "text")
      .addColumn("ai_model", "text")
      .addColumn("ai_input_tokens", "integer")
      .addColumn("ai_output_tokens", "integer")
      .addColumn("ai_cost_micros", "integer")
      .addColumn("ai_note", "text")
      .addColumn("ai_at", "timestamptz")
      .execute();
    await db.schema
      .createIndex("review_runs_ai_spend_idx")
      .on("review_runs")
      .columns(["org_id", "ai_at"])
      .where(sql.ref("ai_at"), "is not", null)
      .execute();
  },
};
