/**
 * The model provider on the AI SDK (docs/review-engine.md, "AI reviewer: model providers";
 * decision 017): OpenAI through chat completions, Anthropic through messages, any
 * OpenAI-compatible server through chat completions at its base URL. Structured output is asked
 * for with the review schema, every answer is read again with zod, an invalid one gets one repair
 * request, 429 and 5xx answers are retried here (honouring a short retry-after), and every request
 * has a deadline. Every request goes through `pinnedFetch`: only to addresses the deployment allows,
 * never following a redirect (docs/decisions/030-model-outbound-calls.md).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
} from "ai";
import type { HostLookup, OutboundPolicy } from "../../../net/outbound-address.ts";
import { pinnedFetch } from "../../../net/pinned-fetch.ts";
import { readAnswer, repairInstruction } from "./model-answer.ts";
import { isRetryable, retryAfterSeconds, toModelError } from "./model-errors.ts";
import {
  type CreateModelProvider,
  ModelError,
  type ModelProvider,
  type ModelReview,
  type ModelSettings,
  type ModelUsage,
  modelReviewSchema,
} from "./model-provider.ts";

export interface AiSdkProviderOptions {
  /** Deadline of each request, its retries included. Default 120 s. */
  timeoutMs?: number;
  /** Retries of a 429 or 5xx answer. Default 2. */
  maxRetries?: number;
  /** Wait before the first retry when the server names none; doubles each time. Default 1 s. */
  retryDelayMs?: number;
  /** The longest retry-after waited for; a 429 asking more fails at once (rate_limited). Default 10 s. */
  maxRetryAfterSeconds?: number;
}

/** Which addresses a model may be called at, and how host names resolve (tests point names anywhere). */
export interface ModelAddressPolicy {
  policy: OutboundPolicy;
  lookupHost?: HostLookup;
}

const DEFAULTS: Required<AiSdkProviderOptions> = {
  timeoutMs: 120_000,
  maxRetries: 2,
  retryDelayMs: 1_000,
  maxRetryAfterSeconds: 10,
};

export const CONNECTION_TEST_PROMPT = "Reply with the single word OK.";
const CONNECTION_TEST_MAX_OUTPUT_TOKENS = 16;
const CONNECTION_TEST_REPLY_MAX = 200;

const reviewOutput = Output.object({
  schema: modelReviewSchema,
  name: "review",
  description: "Findings of a code review, each anchored on a line the pull request adds.",
});

const NO_USAGE: ModelUsage = { inputTokens: 0, outputTokens: 0 };

const toUsage = (usage: LanguageModelUsage | undefined): ModelUsage => ({
  inputTokens: usage?.inputTokens ?? 0,
  outputTokens: usage?.outputTokens ?? 0,
});

const addUsage = (a: ModelUsage, b: ModelUsage): ModelUsage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

/** The SDK model for the settings; the key is always passed, never read from the environment. */
const languageModel = (settings: ModelSettings, fetch: typeof globalThis.fetch): LanguageModel => {
  const baseURL = settings.baseUrl ?? undefined;
  const apiKey = settings.apiKey ?? undefined;
  switch (settings.kind) {
    case "openai":
      // Chat completions rather than the Responses API: every OpenAI-shaped proxy speaks it.
      return createOpenAI({ apiKey, baseURL, fetch }).chat(settings.model);
    case "anthropic":
      return createAnthropic({ apiKey, baseURL, fetch })(settings.model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: baseURL ?? "",
        apiKey,
        fetch,
        supportsStructuredOutputs: true,
      })(settings.model);
  }
};

/** Settings the SDK cannot be called with; said before any request is made. */
const settingsProblem = (settings: ModelSettings): ModelError | undefined => {
  if (settings.kind === "openai-compatible" && !settings.baseUrl) {
    return new ModelError("bad_request", "An OpenAI-compatible model needs the server's base URL");
  }
  if (settings.kind !== "openai-compatible" && !settings.apiKey) {
    const label = settings.kind === "openai" ? "OpenAI" : "Anthropic";
    return new ModelError("unauthorized", `No API key is set for ${label}`);
  }
  return undefined;
};

/** The SDK's validated output; none when the model stopped without text (a length or content limit). */
const outputOf = (result: { readonly output: ModelReview }): ModelReview | undefined => {
  try {
    return result.output;
  } catch (error) {
    if (NoOutputGeneratedError.isInstance(error)) return undefined;
    throw error;
  }
};

/** One model answer: the review when it is valid, the text and tokens either way. */
interface Attempt {
  review: ModelReview | undefined;
  text: string;
  usage: ModelUsage;
}

export const createAiSdkModelProvider = (
  settings: ModelSettings,
  addresses: ModelAddressPolicy,
  options: AiSdkProviderOptions = {},
): ModelProvider => {
  const policy = { ...DEFAULTS, ...options };
  const model = languageModel(settings, pinnedFetch(addresses.policy, addresses.lookupHost));

  /**
   * Runs one request under a deadline (and the caller's signal), retrying 429 and 5xx answers;
   * anything thrown comes out as a ModelError carrying `usageSoFar`.
   */
  const request = async <T>(
    call: (signal: AbortSignal) => Promise<T>,
    callerSignal: AbortSignal | undefined,
    usageSoFar: ModelUsage,
  ): Promise<T> => {
    const problem = settingsProblem(settings);
    if (problem) throw problem;
    const deadline = AbortSignal.timeout(policy.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([deadline, callerSignal]) : deadline;
    try {
      for (let retry = 0; ; retry += 1) {
        try {
          return await call(signal);
        } catch (error) {
          if (!isRetryable(error) || retry >= policy.maxRetries) throw error;
          const askedSeconds = retryAfterSeconds(error.responseHeaders);
          if (askedSeconds !== undefined && askedSeconds > policy.maxRetryAfterSeconds) throw error;
          const waitMs = askedSeconds !== undefined ? askedSeconds * 1000 : policy.retryDelayMs * 2 ** retry;
          await sleep(waitMs, undefined, { signal });
        }
      }
    } catch (error) {
      throw toModelError(error, {
        baseUrl: settings.baseUrl,
        usage: usageSoFar,
        timedOutAfterMs: deadline.aborted ? policy.timeoutMs : undefined,
        cancelled: callerSignal?.aborted ?? false,
      });
    }
  };

  const ask = (
    system: string,
    messages: ModelMessage[],
    callerSignal: AbortSignal | undefined,
    usageSoFar: ModelUsage,
  ): Promise<Attempt> =>
    request(
      async (abortSignal) => {
        try {
          const result = await generateText({
            model,
            instructions: system,
            messages,
            output: reviewOutput,
            maxRetries: 0,
            abortSignal,
          });
          return { review: outputOf(result), text: result.text, usage: toUsage(result.usage) };
        } catch (error) {
          // The SDK's own parse failed (a fence, words around the JSON, a schema mismatch): read it ourselves.
          if (NoObjectGeneratedError.isInstance(error)) {
            return { review: undefined, text: error.text ?? "", usage: toUsage(error.usage) };
          }
          throw error;
        }
      },
      callerSignal,
      usageSoFar,
    );

  return {
    async review({ system, prompt, signal }) {
      const messages: ModelMessage[] = [{ role: "user", content: prompt }];
      const first = await ask(system, messages, signal, NO_USAGE);
      const firstReading = first.review
        ? { ok: true as const, review: first.review }
        : readAnswer(first.text);
      if (firstReading.ok) return { review: firstReading.review, usage: first.usage, attempts: 1 };

      const repairMessages: ModelMessage[] = [
        ...messages,
        { role: "assistant", content: first.text || "(an empty answer)" },
        { role: "user", content: repairInstruction(firstReading.problem) },
      ];
      const second = await ask(system, repairMessages, signal, first.usage);
      const usage = addUsage(first.usage, second.usage);
      const secondReading = second.review
        ? { ok: true as const, review: second.review }
        : readAnswer(second.text);
      if (secondReading.ok) return { review: secondReading.review, usage, attempts: 2 };
      throw new ModelError(
        "invalid_output",
        `The model's answer was not a valid review, even after one repair request: ${secondReading.problem}`,
        { usage },
      );
    },

    async testConnection(signal) {
      const started = performance.now();
      const result = await request(
        (abortSignal) =>
          generateText({
            model,
            prompt: CONNECTION_TEST_PROMPT,
            maxOutputTokens: CONNECTION_TEST_MAX_OUTPUT_TOKENS,
            maxRetries: 0,
            abortSignal,
          }),
        signal,
        NO_USAGE,
      );
      return {
        reply: result.text.trim().slice(0, CONNECTION_TEST_REPLY_MAX),
        usage: toUsage(result.usage),
        latencyMs: Math.round(performance.now() - started),
      };
    },
  };
};

/** The provider of the product: the AI SDK, calling only the addresses `addresses` allows. */
export const aiSdkModelProviders =
  (addresses: ModelAddressPolicy): CreateModelProvider =>
  (settings) =>
    createAiSdkModelProvider(settings, addresses);
