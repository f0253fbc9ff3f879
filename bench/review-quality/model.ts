/**
 * The model the quality benchmark reviews with, from the environment; none set means the built-in
 * reviewer alone, so CI always measures something. The API key is passed on, never printed.
 *   ARGUS_QUALITY_MODEL_KIND        openai | anthropic | openai-compatible
 *   ARGUS_QUALITY_MODEL             the model's name
 *   ARGUS_QUALITY_MODEL_BASE_URL    required for openai-compatible, optional otherwise
 *   ARGUS_QUALITY_MODEL_API_KEY     optional for a local server
 *   ARGUS_QUALITY_MODEL_INPUT_TOKENS  the most input tokens a request may carry (default 32,000)
 *   ARGUS_QUALITY_MODEL_PRICE_INPUT, ARGUS_QUALITY_MODEL_PRICE_OUTPUT  USD per million tokens, for
 *                                   the cost (none known otherwise)
 */
import { z } from "zod";
import type { ModelSettings } from "../../backend/review/reviewers/ai/model-provider.ts";
import type { PriceTable } from "../../backend/review/reviewers/ai/pricing.ts";
import { MODEL_KINDS } from "../../shared/contract/ai-model.ts";

const DEFAULT_INPUT_TOKENS = 32_000;

const kinds = MODEL_KINDS.map((kind) => kind.value) as [ModelSettings["kind"], ...ModelSettings["kind"][]];

const envSchema = z
  .object({
    ARGUS_QUALITY_MODEL_KIND: z.enum(kinds),
    ARGUS_QUALITY_MODEL: z.string().min(1),
    ARGUS_QUALITY_MODEL_BASE_URL: z.url().optional(),
    ARGUS_QUALITY_MODEL_API_KEY: z.string().min(1).optional(),
    ARGUS_QUALITY_MODEL_INPUT_TOKENS: z.coerce.number().int().positive().default(DEFAULT_INPUT_TOKENS),
    ARGUS_QUALITY_MODEL_PRICE_INPUT: z.coerce.number().nonnegative().optional(),
    ARGUS_QUALITY_MODEL_PRICE_OUTPUT: z.coerce.number().nonnegative().optional(),
  })
  .refine((env) => env.ARGUS_QUALITY_MODEL_KIND !== "openai-compatible" || env.ARGUS_QUALITY_MODEL_BASE_URL, {
    message: "ARGUS_QUALITY_MODEL_BASE_URL is required for an openai-compatible server",
  });

/** The model the AI pass reviews with, and its price (empty when unknown: no cost is reported). */
export interface QualityModel {
  settings: ModelSettings;
  prices: PriceTable;
}

/** The model named by the environment, or null when ARGUS_QUALITY_MODEL_KIND is not set. */
export function qualityModelFromEnv(env: NodeJS.ProcessEnv = process.env): QualityModel | null {
  if (!env.ARGUS_QUALITY_MODEL_KIND) return null;
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Only the names and messages: an issue never quotes the key's value.
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "model"}: ${issue.message}`);
    throw new Error(`The quality benchmark's model settings are incomplete: ${issues.join("; ")}`);
  }
  const named = parsed.data;
  const input = named.ARGUS_QUALITY_MODEL_PRICE_INPUT;
  const output = named.ARGUS_QUALITY_MODEL_PRICE_OUTPUT;
  return {
    settings: {
      kind: named.ARGUS_QUALITY_MODEL_KIND,
      model: named.ARGUS_QUALITY_MODEL,
      baseUrl: named.ARGUS_QUALITY_MODEL_BASE_URL ?? null,
      apiKey: named.ARGUS_QUALITY_MODEL_API_KEY ?? null,
      inputTokenLimit: named.ARGUS_QUALITY_MODEL_INPUT_TOKENS,
      monthlyBudgetCents: null,
    },
    prices:
      input !== undefined && output !== undefined ? { [named.ARGUS_QUALITY_MODEL]: { input, output } } : {},
  };
}

/** The reviewer in words for the report: kind, model and server, never the key. */
export function describeReviewer(quality: QualityModel | null): string {
  if (!quality) return "built-in reviewer alone (no model configured)";
  const model = quality.settings;
  return `built-in + ${model.kind} ${model.model}${model.baseUrl ? ` at ${new URL(model.baseUrl).host}` : ""}`;
}
