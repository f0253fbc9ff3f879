/**
 * The review engine's port to an AI model (docs/review-engine.md, "AI reviewer"): one narrow
 * interface, implemented once on the AI SDK for OpenAI, Anthropic and any OpenAI-compatible server.
 * The pipeline only talks to this port, so tests give it a scripted provider and the quality
 * benchmark any configured one.
 */
import { z } from "zod";
import type { ModelKind } from "../../../../shared/contract/ai-model.ts";
import {
  FINDING_MESSAGE_MAX,
  FINDING_PATH_MAX,
  FINDING_QUOTE_MAX,
  FINDING_SEVERITY_ORDER,
} from "../../../../shared/contract/reviews.ts";

export type { ModelKind };

/** An organisation's model, as the engine uses it: the API key decrypted, never logged. */
export interface ModelSettings {
  kind: ModelKind;
  /** Required for `openai-compatible`; optional for the others (a company proxy). */
  baseUrl: string | null;
  model: string;
  apiKey: string | null;
  /** The most input tokens one request may carry; the diff is packed to fit. */
  inputTokenLimit: number;
  /** The organisation's monthly spending cap, in cents (USD); null means no cap. */
  monthlyBudgetCents: number | null;
}

/** Reads an organisation's model settings; null when it has none (the built-in reviewer alone). */
export type ModelSettingsReader = (orgId: string) => Promise<ModelSettings | null>;

/** The longest finding title a model may give. */
export const MODEL_FINDING_TITLE_MAX = 120;
/** The most findings one answer may carry; a longer answer is invalid. */
export const MODEL_FINDINGS_MAX = 50;

/**
 * What the model answers: the one schema of findings every provider is asked for and every answer
 * is re-validated with (many local servers ignore JSON schemas). `line` is a right-side line of the
 * head commit as the numbered diff shows it, and `quote` that line's text: the anchor check keeps a
 * finding only when the two agree.
 */
export const modelFindingSchema = z.object({
  path: z.string().min(1).max(FINDING_PATH_MAX),
  line: z.number().int().positive(),
  quote: z.string().max(FINDING_QUOTE_MAX * 4),
  severity: z.enum(FINDING_SEVERITY_ORDER),
  title: z.string().min(1).max(MODEL_FINDING_TITLE_MAX),
  message: z.string().min(1).max(FINDING_MESSAGE_MAX),
});
export type ModelFinding = z.infer<typeof modelFindingSchema>;

export const modelReviewSchema = z.object({
  findings: z.array(modelFindingSchema).max(MODEL_FINDINGS_MAX),
});
export type ModelReview = z.infer<typeof modelReviewSchema>;

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelReviewRequest {
  /** The standing instructions: role, rules, the answer's shape. */
  system: string;
  /** The numbered diff, the built-in findings as grounding, the repository's instructions. */
  prompt: string;
  signal?: AbortSignal;
}

export interface ModelReviewAnswer {
  review: ModelReview;
  /** Summed over every request this review made (a repair retry included). */
  usage: ModelUsage;
  /** 1, or 2 when the first answer was invalid and the repair request's answer was used. */
  attempts: number;
}

/** Why a model call failed, in words the run's log and the summary note can use. */
export type ModelFailure =
  | "timeout"
  | "rate_limited"
  | "server_error"
  | "invalid_output"
  | "unauthorized"
  | "bad_request"
  | "unreachable"
  /** The base URL resolves to an address this deployment does not call (backend/net/outbound-address.ts). */
  | "address_refused"
  /** The server answered a 3xx: redirects are not followed. */
  | "redirected";

export class ModelError extends Error {
  override name = "ModelError";
  readonly failure: ModelFailure;
  /** Tokens spent before the failure (an invalid answer still costs), so budgets count them. */
  readonly usage: ModelUsage;
  /** Seconds the server asked to wait (429 retry-after), when it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    failure: ModelFailure,
    message: string,
    options: { usage?: ModelUsage; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.failure = failure;
    this.usage = options.usage ?? { inputTokens: 0, outputTokens: 0 };
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export interface ModelConnectionTest {
  /** The model's answer to a tiny prompt, cut short. */
  reply: string;
  usage: ModelUsage;
  latencyMs: number;
}

export interface ModelProvider {
  /** One review: structured output, re-validated, one repair-and-retry; throws ModelError. */
  review(request: ModelReviewRequest): Promise<ModelReviewAnswer>;
  /** A tiny request that proves the settings work; throws ModelError with the exact reason. */
  testConnection(signal?: AbortSignal): Promise<ModelConnectionTest>;
}

export type CreateModelProvider = (settings: ModelSettings) => ModelProvider;
