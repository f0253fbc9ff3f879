/** The zod schemas of shared/contract/ai-model.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { URL_MAX } from "../constants.ts";
import {
  AI_MODEL,
  baseUrlProblem,
  baseUrlRequired,
  DOLLARS,
  INPUT_TOKEN_LIMIT,
  MODEL_API_KEY_MAX,
  MODEL_FAILURE_LABELS,
  MODEL_KINDS,
  MODEL_NAME_MAX,
  MONTHLY_BUDGET_CENTS_MAX,
  type ModelFailureKind,
  type ModelKind,
} from "./ai-model.ts";

/**
 * The AI model calls of the HTTP contract (docs/product.md#settingsai-model, #api), as zod schemas. Kept
 * beside shared/contract/ so that pages load them only on demand. The form checks its values with
 * `aiModelFormSchema`, built from the same field schemas the backend checks requests with, so both
 * give the messages of shared/contract/ai-model.ts.
 */

const modelKindSchema = z.enum(
  Object.fromEntries(MODEL_KINDS.map(({ value }) => [value, value])) as { [K in ModelKind]: K },
  { error: AI_MODEL.kindInvalid },
);

/** An http(s) URL without query, fragment or credentials, trailing slashes dropped; empty means none (null). */
const baseUrlSchema = z
  .string()
  .trim()
  .max(URL_MAX, AI_MODEL.baseUrlInvalid)
  .superRefine((url, ctx) => {
    const problem = baseUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((url) => (url === "" ? null : url.replace(/\/+$/, "")));

const modelNameSchema = z
  .string()
  .trim()
  .min(1, AI_MODEL.modelRequired)
  .max(MODEL_NAME_MAX, AI_MODEL.modelTooLong);

const apiKeySchema = z
  .string()
  .trim()
  .min(1, AI_MODEL.apiKeyInvalid)
  .max(MODEL_API_KEY_MAX, AI_MODEL.apiKeyInvalid);

/**
 * A whole number within [min, max], one message for all of it. A refinement, not .int(): that one
 * stops the object's other checks, and a form shows every problem at once.
 */
const wholeNumberIn = (min: number, max: number, message: string) =>
  z.number({ error: message }).refine((n) => Number.isInteger(n) && n >= min && n <= max, message);

const inputTokenLimitSchema = wholeNumberIn(
  INPUT_TOKEN_LIMIT.min,
  INPUT_TOKEN_LIMIT.max,
  AI_MODEL.inputTokenLimit,
);

const budgetCentsSchema = wholeNumberIn(0, MONTHLY_BUDGET_CENTS_MAX, AI_MODEL.budgetCents);

/**
 * PUT /api/ai-model (save) and POST /api/ai-model/test (try before saving). `apiKey`: absent keeps
 * (or tests with) the stored key, which only serves an unchanged kind and base URL
 * (`storedKeyServes`); a string replaces it, null removes it (tests without one).
 */
export const aiModelRequestSchema = z
  .object({
    kind: modelKindSchema,
    baseUrl: baseUrlSchema.nullable().default(null),
    model: modelNameSchema,
    apiKey: apiKeySchema.nullable().optional(),
    inputTokenLimit: inputTokenLimitSchema,
    monthlyBudgetCents: budgetCentsSchema.nullable(),
  })
  .refine(...baseUrlRequired);

export type AiModelRequest = z.output<typeof aiModelRequestSchema>;

/** The form's values as a request; an empty API key field keeps the stored key. */
export const aiModelFormSchema = z
  .object({
    kind: modelKindSchema,
    baseUrl: baseUrlSchema,
    model: modelNameSchema,
    apiKey: z
      .string()
      .trim()
      .max(MODEL_API_KEY_MAX, AI_MODEL.apiKeyInvalid)
      .transform((key) => key || undefined),
    inputTokenLimit: z
      .string()
      .trim()
      .transform((limit) => (limit === "" ? Number.NaN : Number(limit.replaceAll(",", ""))))
      .pipe(inputTokenLimitSchema),
    monthlyBudget: z
      .string()
      .trim()
      .refine((dollars) => dollars === "" || DOLLARS.test(dollars), AI_MODEL.budgetUsd)
      .transform((dollars) => (dollars === "" ? null : Math.round(Number(dollars) * 100)))
      .pipe(budgetCentsSchema.nullable()),
  })
  .refine(...baseUrlRequired)
  .transform(
    ({ monthlyBudget, ...values }): AiModelRequest => ({ ...values, monthlyBudgetCents: monthlyBudget }),
  );

/** An organisation's model as the API shows it: whether a key is stored, never the key. */
export const aiModelSchema = z.object({
  configured: z.literal(true),
  kind: modelKindSchema,
  baseUrl: z.string().nullable(),
  model: z.string(),
  apiKeySet: z.boolean(),
  inputTokenLimit: z.number(),
  monthlyBudgetCents: z.number().nullable(),
  updatedAt: z.string(),
});

export type AiModel = z.infer<typeof aiModelSchema>;

/** GET, PUT and DELETE /api/ai-model answer the organisation's model, or that it has none. */
export const aiModelResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.discriminatedUnion("configured", [z.object({ configured: z.literal(false) }), aiModelSchema]),
});

export type AiModelResponse = z.infer<typeof aiModelResponseSchema>;

const modelFailureSchema = z.enum(
  Object.fromEntries(Object.keys(MODEL_FAILURE_LABELS).map((failure) => [failure, failure])) as {
    [K in ModelFailureKind]: K;
  },
);

/** POST /api/ai-model/test: the model's reply and how long it took, or the exact reason it failed. */
export const aiModelTestResponseSchema = z.object({
  success: z.literal(true),
  data: z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), reply: z.string(), latencyMs: z.number() }),
    z.object({ ok: z.literal(false), failure: modelFailureSchema, message: z.string() }),
  ]),
});

export type AiModelTestResponse = z.infer<typeof aiModelTestResponseSchema>;
