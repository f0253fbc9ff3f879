/**
 * What an AI review costs and what an organisation has spent this month (docs/review-engine.md,
 * "Cost and budget"). Prices come from the operator (AI_MODEL_PRICES): providers change them and
 * self-hosted models have none, so the app ships no price list of its own.
 */
import { sql } from "kysely";
import { z } from "zod";
import type { AiMonthUsage } from "../../../../shared/contract/ai-model.ts";
import type { Db } from "../../../db/database.ts";
import type { ModelUsage } from "./model-provider.ts";

const usdPerMillion = z.number().nonnegative().max(10_000);

/** Model name → USD per million input and output tokens. */
export const priceTableSchema = z.record(
  z.string().trim().min(1).max(200),
  z.object({ input: usdPerMillion, output: usdPerMillion }).strict(),
);
export type PriceTable = z.infer<typeof priceTableSchema>;

/**
 * The cost in micro-dollars (millionths of a USD), or null when the table has no price for the
 * model. USD per million tokens is exactly micro-dollars per token.
 */
export function costMicros(prices: PriceTable, model: string, usage: ModelUsage): number | null {
  const price = prices[model];
  if (!price) return null;
  return Math.round(usage.inputTokens * price.input + usage.outputTokens * price.output);
}

/** The calendar month (UTC) `now` falls in: [start, end). */
export function utcMonth(now: Date): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/**
 * The organisation's AI reviews this calendar month (UTC): the passes that called the model, their
 * tokens and cost (micro-dollars; unpriced passes count 0), which the monthly budget is held to.
 */
export async function monthUsage(db: Db, orgId: string, now: Date): Promise<AiMonthUsage> {
  const { start, end } = utcMonth(now);
  const row = await db
    .selectFrom("review_runs")
    .select([
      sql<string>`count(*)`.as("reviews"),
      sql<string>`count(*) filter (where ai_cost_micros is null)`.as("unpriced"),
      sql<string>`coalesce(sum(ai_input_tokens), 0)`.as("input"),
      sql<string>`coalesce(sum(ai_output_tokens), 0)`.as("output"),
      sql<string>`coalesce(sum(ai_cost_micros), 0)`.as("cost"),
    ])
    .where("org_id", "=", orgId)
    .where("ai_at", ">=", start)
    .where("ai_at", "<", end)
    .executeTakeFirstOrThrow();
  return {
    since: start.toISOString(),
    until: end.toISOString(),
    reviews: Number(row.reviews),
    unpricedReviews: Number(row.unpriced),
    inputTokens: Number(row.input),
    outputTokens: Number(row.output),
    costMicros: Number(row.cost),
  };
}
