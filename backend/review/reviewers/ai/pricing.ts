/**
 * What an AI review costs and what an organisation has spent this month (docs/review-engine.md,
 * "Cost and budget"). Prices come from the operator (AI_MODEL_PRICES): providers change them and
 * self-hosted models have none, so the app ships no price list of its own.
 */
import { sql } from "kysely";
import { z } from "zod";
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

/** Micro-dollars per cent. */
export const MICROS_PER_CENT = 10_000;

/** The calendar month (UTC) `now` falls in: [start, end). */
export function utcMonth(now: Date): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** The organisation's AI spend this calendar month (UTC), in micro-dollars; unpriced runs count 0. */
export async function monthSpendMicros(db: Db, orgId: string, now: Date): Promise<number> {
  const { start, end } = utcMonth(now);
  const row = await db
    .selectFrom("review_runs")
    .select(sql<string | number | null>`sum(ai_cost_micros)`.as("spent"))
    .where("org_id", "=", orgId)
    .where("ai_at", ">=", start)
    .where("ai_at", "<", end)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}
