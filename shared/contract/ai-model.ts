/**
 * An organisation's AI model (docs/decisions/018-ai-model-settings.md): the kinds of model, the
 * form's limits and messages, and the AI model calls of the HTTP contract (docs/product.md#settingsai-model,
 * #api) as valibot schemas, one module.
 */
import * as v from "valibot";
import { ORG_OWNER_ROLE, URL_MAX } from "../constants.ts";
import { schema } from "./schema.ts";

/**
 * The kinds of AI model an organisation can point the review engine at (docs/review-engine.md,
 * "AI reviewer"), and who may change one, with what key. Plain data and rules, so a page can use
 * them without the schemas below.
 */

export const MODEL_KINDS = [
  { value: "openai", label: "OpenAI" },
  { value: "anthropic", label: "Anthropic" },
  { value: "openai-compatible", label: "OpenAI-compatible server (Ollama, vLLM, LM Studio, a gateway)" },
] as const;

export type ModelKind = (typeof MODEL_KINDS)[number]["value"];

/** Only the owner changes, removes or tests the model (docs/decisions/030-model-outbound-calls.md). */
export const mayChangeAiModel = (role: string | null | undefined): boolean => role === ORG_OWNER_ROLE;

/** Where a model is called: the kind (its default address and key header) and the base URL. */
export interface ModelAddress {
  kind: ModelKind;
  baseUrl: string | null;
}

/**
 * Whether the stored key may go with `request`: only to the kind and base URL it was saved with,
 * so that changing either (to an address of the caller's choosing) needs the key itself.
 */
export const storedKeyServes = (saved: ModelAddress, request: ModelAddress): boolean =>
  saved.kind === request.kind && saved.baseUrl === request.baseUrl;

/**
 * The AI model screen's limits and exact text (docs/product.md#settingsai-model). Plain data, so the
 * page shows them without the schemas below, which build their checks from them: the backend
 * refuses with the very messages the form shows.
 */

/** The most input tokens one request may carry: the range offered, and a fresh form's value. */
export const INPUT_TOKEN_LIMIT = { min: 1_000, max: 2_000_000, default: 32_000 } as const;

/** The highest monthly budget accepted: 1,000,000 USD, in cents. */
export const MONTHLY_BUDGET_CENTS_MAX = 100_000_000;

export const MODEL_NAME_MAX = 200;

export const MODEL_API_KEY_MAX = 4096;

/** What each kind's base URL and model fields suggest. */
export const MODEL_KIND_HINTS: Record<ModelKind, { baseUrl: string; model: string }> = {
  openai: { baseUrl: "https://api.openai.com/v1 (optional)", model: "gpt-4.1-mini" },
  anthropic: { baseUrl: "https://api.anthropic.com/v1 (optional)", model: "claude-sonnet-4-5" },
  "openai-compatible": { baseUrl: "http://localhost:11434/v1", model: "qwen2.5-coder:14b" },
};

/** Why a test failed, as the page names each ModelFailure (backend/review/reviewers/ai/model-provider.ts). */
export const MODEL_FAILURE_LABELS = {
  timeout: "The model did not answer in time",
  rate_limited: "The model server is rate-limiting",
  server_error: "The model server failed",
  invalid_output: "The model's answer was not usable",
  unauthorized: "The API key was refused",
  bad_request: "The model server refused the request",
  unreachable: "The model server could not be reached",
  address_refused: "The base URL's address is not allowed",
  redirected: "The model server redirected the request",
} as const;

export type ModelFailureKind = keyof typeof MODEL_FAILURE_LABELS;

export const AI_MODEL = {
  title: "AI model",
  description:
    "The model the review engine asks, after the built-in reviewer, about each pull request of your organization.",
  loading: "Loading the AI model…",
  loadFailed: "Failed to load the AI model",
  empty: "No AI model: reviews use the built-in reviewer",
  emptyHint:
    "Point the review engine at OpenAI, Anthropic or your own OpenAI-compatible server (Ollama, vLLM).",
  add: "Add an AI model",
  saved: "AI model saved",
  saveFailed: "Failed to save the AI model",
  removed: "AI model removed: reviews use the built-in reviewer",
  removeFailed: "Failed to remove the AI model",
  testFailed: "Failed to test the connection",
  testRateLimited: "Too many connection tests: wait a minute and try again",
  ownerOnly: "Only the organization's owner can change the AI model",
  readOnly: "Only the organization's owner can change the AI model. You can see what it is set to.",
  keySet: "Set",
  keyNotSet: "Not set",
  keyRemoved: "Removed on save",
  /** Validation: the same words from the API and in the form. */
  kindInvalid: "Choose OpenAI, Anthropic or an OpenAI-compatible server",
  baseUrlRequired: "Enter the server's base URL, e.g. http://localhost:11434/v1",
  baseUrlInvalid: "Enter an http:// or https:// URL",
  baseUrlQuery: "A base URL ends with its path: no ? query and no # fragment",
  baseUrlCredentials: "A base URL carries no user name or password: put the key in the API key field",
  modelRequired: "Enter the model's name",
  modelTooLong: `A model name has at most ${MODEL_NAME_MAX} characters`,
  apiKeyInvalid: `An API key has 1 to ${MODEL_API_KEY_MAX} characters`,
  apiKeyRequired:
    "Enter the API key again: the stored key is only sent to the kind and base URL it was saved with",
  inputTokenLimit: "Enter a whole number of tokens from 1,000 to 2,000,000",
  budgetCents: "A monthly budget is a whole number of cents from 0 to 100,000,000, or null for no cap",
  budgetUsd: "Enter US dollars from 0 to 1,000,000 (at most two decimals), or leave it empty for no cap",
  /** This month's use of the model, beside the settings. */
  usageTitle: "This month",
  usageReviews: "AI reviews",
  usageTokens: "Tokens",
  usageSpent: "Spent",
  usageNoCap: "no cap",
  budgetReached:
    "The monthly budget is spent: pull requests get the built-in reviewer's findings only, until the month ends.",
  unpricedReviews: (count: number) =>
    `${count.toLocaleString("en-US")} ${count === 1 ? "review" : "reviews"} by a model without a known price (AI_MODEL_PRICES) ${count === 1 ? "counts" : "count"} as $0.`,
} as const;

/** What is wrong with a typed base URL, if anything; which addresses it may reach is the backend's check. */
export function baseUrlProblem(url: string): string | undefined {
  if (url === "") return undefined;
  const parsed = URL.parse(url);
  if (!parsed || !/^https?:$/.test(parsed.protocol)) return AI_MODEL.baseUrlInvalid;
  // Request paths are appended to it: a query would swallow them (`…?x=/chat/completions`).
  if (url.includes("?") || url.includes("#")) return AI_MODEL.baseUrlQuery;
  if (parsed.username || parsed.password) return AI_MODEL.baseUrlCredentials;
  return undefined;
}

/** An OpenAI-compatible server has no default address: its base URL is required. */
function hasBaseUrlIfRequired(values: { kind: ModelKind; baseUrl: string | null }): boolean {
  return !(values.kind === "openai-compatible" && !values.baseUrl);
}

/** The form's text fields, as typed. */
export interface AiModelFormValues {
  kind: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  inputTokenLimit: string;
  /** US dollars; empty: no cap. */
  monthlyBudget: string;
}

export const DOLLARS = /^\d+(\.\d{1,2})?$/;

/**
 * The schemas. The form checks its values with `aiModelFormSchema`, built from the same field
 * schemas the backend checks requests with, so both give the messages above.
 */

/** Each value of `MODEL_KINDS`. */
const modelKindValues = () => MODEL_KINDS.map(({ value }) => value);

const modelKindSchema = schema(() => v.picklist(modelKindValues(), AI_MODEL.kindInvalid));

/** An http(s) URL without query, fragment or credentials, trailing slashes dropped; empty means none (null). */
const baseUrlSchema = schema(() =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(URL_MAX, AI_MODEL.baseUrlInvalid),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = baseUrlProblem(dataset.value);
      if (problem) addIssue({ message: problem });
    }),
    v.transform((url) => (url === "" ? null : url.replace(/\/+$/, ""))),
  ),
);

const modelNameSchema = schema(() =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, AI_MODEL.modelRequired),
    v.maxLength(MODEL_NAME_MAX, AI_MODEL.modelTooLong),
  ),
);

const apiKeySchema = schema(() =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, AI_MODEL.apiKeyInvalid),
    v.maxLength(MODEL_API_KEY_MAX, AI_MODEL.apiKeyInvalid),
  ),
);

/**
 * A whole number within [min, max], one message for all of it (a number that is not one, NaN
 * included, too).
 */
const wholeNumberIn = (min: number, max: number, message: string) =>
  v.pipe(
    v.number(message),
    v.check((n) => Number.isInteger(n) && n >= min && n <= max, message),
  );

const inputTokenLimitSchema = schema(() =>
  wholeNumberIn(INPUT_TOKEN_LIMIT.min, INPUT_TOKEN_LIMIT.max, AI_MODEL.inputTokenLimit),
);

const budgetCentsSchema = schema(() => wholeNumberIn(0, MONTHLY_BUDGET_CENTS_MAX, AI_MODEL.budgetCents));

/**
 * PUT /api/ai-model (save) and POST /api/ai-model/test (try before saving). `apiKey`: absent keeps
 * (or tests with) the stored key, which only serves an unchanged kind and base URL
 * (`storedKeyServes`); a string replaces it, null removes it (tests without one).
 */
export const aiModelRequestSchema = schema(() =>
  v.pipe(
    v.object({
      kind: modelKindSchema,
      baseUrl: v.optional(v.nullable(baseUrlSchema), null),
      model: modelNameSchema,
      apiKey: v.optional(v.nullable(apiKeySchema)),
      inputTokenLimit: inputTokenLimitSchema,
      monthlyBudgetCents: v.nullable(budgetCentsSchema),
    }),
    v.forward(v.partialCheck([["kind"], ["baseUrl"]], hasBaseUrlIfRequired, AI_MODEL.baseUrlRequired), [
      "baseUrl",
    ]),
  ),
);

export type AiModelRequest = v.InferOutput<typeof aiModelRequestSchema>;

/** The form's values as a request; an empty API key field keeps the stored key. */
export const aiModelFormSchema = schema(() =>
  v.pipe(
    v.object({
      kind: modelKindSchema,
      baseUrl: baseUrlSchema,
      model: modelNameSchema,
      apiKey: v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(MODEL_API_KEY_MAX, AI_MODEL.apiKeyInvalid),
        v.transform((key) => key || undefined),
      ),
      inputTokenLimit: v.pipe(
        v.string(),
        v.trim(),
        v.transform((limit) => (limit === "" ? Number.NaN : Number(limit.replaceAll(",", "")))),
        inputTokenLimitSchema,
      ),
      monthlyBudget: v.pipe(
        v.string(),
        v.trim(),
        v.check((dollars) => dollars === "" || DOLLARS.test(dollars), AI_MODEL.budgetUsd),
        v.transform((dollars) => (dollars === "" ? null : Math.round(Number(dollars) * 100))),
        v.nullable(budgetCentsSchema),
      ),
    }),
    v.forward(v.partialCheck([["kind"], ["baseUrl"]], hasBaseUrlIfRequired, AI_MODEL.baseUrlRequired), [
      "baseUrl",
    ]),
    v.transform(
      ({ monthlyBudget, ...values }): AiModelRequest => ({ ...values, monthlyBudgetCents: monthlyBudget }),
    ),
  ),
);

/** Micro-dollars per cent: costs are counted in micro-dollars (USD millionths), budgets in cents. */
export const MICROS_PER_CENT = 10_000;

/**
 * The organisation's AI reviews this calendar month (UTC), which the monthly budget is held to: the
 * passes that called the model, their tokens, and their cost in micro-dollars (a pass by a model
 * without a price counts 0 and is counted in `unpricedReviews`). `until` is when the count restarts.
 */
export const aiMonthUsageSchema = schema(() =>
  v.object({
    since: v.string(),
    until: v.string(),
    reviews: v.number(),
    unpricedReviews: v.number(),
    inputTokens: v.number(),
    outputTokens: v.number(),
    costMicros: v.number(),
  }),
);

export type AiMonthUsage = v.InferOutput<typeof aiMonthUsageSchema>;

/** An organisation's model as the API shows it: whether a key is stored, never the key. */
export const aiModelSchema = schema(() =>
  v.object({
    configured: v.literal(true),
    kind: modelKindSchema,
    baseUrl: v.nullable(v.string()),
    model: v.string(),
    apiKeySet: v.boolean(),
    inputTokenLimit: v.number(),
    monthlyBudgetCents: v.nullable(v.number()),
    updatedAt: v.string(),
    thisMonth: aiMonthUsageSchema,
  }),
);

export type AiModel = v.InferOutput<typeof aiModelSchema>;

/** GET, PUT and DELETE /api/ai-model answer the organisation's model, or that it has none. */
export const aiModelResponseSchema = schema(() =>
  v.object({
    success: v.literal(true),
    message: v.optional(v.string()),
    data: v.variant("configured", [v.object({ configured: v.literal(false) }), aiModelSchema]),
  }),
);

export type AiModelResponse = v.InferOutput<typeof aiModelResponseSchema>;

const modelFailureKinds = () => Object.keys(MODEL_FAILURE_LABELS) as ModelFailureKind[];

const modelFailureSchema = schema(() => v.picklist(modelFailureKinds()));

/** POST /api/ai-model/test: the model's reply and how long it took, or the exact reason it failed. */
export const aiModelTestResponseSchema = schema(() =>
  v.object({
    success: v.literal(true),
    data: v.variant("ok", [
      v.object({ ok: v.literal(true), reply: v.string(), latencyMs: v.number() }),
      v.object({ ok: v.literal(false), failure: modelFailureSchema, message: v.string() }),
    ]),
  }),
);

export type AiModelTestResponse = v.InferOutput<typeof aiModelTestResponseSchema>;
