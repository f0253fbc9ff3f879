import { describe, expect, it } from "vitest";
import { describeReviewer, qualityModelFromEnv } from "./model.ts";

const KEY = "sk-secret-never-printed";

describe("qualityModelFromEnv", () => {
  it("answers null without a model kind: the built-in reviewer alone", () => {
    expect(qualityModelFromEnv({ ARGUS_QUALITY_MODEL: "gpt-4o-mini" })).toBeNull();
    expect(describeReviewer(null)).toMatch(/built-in reviewer alone/);
  });

  it("reads the model, its server, key, token limit and price", () => {
    const model = qualityModelFromEnv({
      ARGUS_QUALITY_MODEL_KIND: "openai-compatible",
      ARGUS_QUALITY_MODEL_BASE_URL: "http://127.0.0.1:11434/v1",
      ARGUS_QUALITY_MODEL: "qwen2.5-coder:14b",
      ARGUS_QUALITY_MODEL_API_KEY: KEY,
      ARGUS_QUALITY_MODEL_INPUT_TOKENS: "16000",
      ARGUS_QUALITY_MODEL_PRICE_INPUT: "0.5",
      ARGUS_QUALITY_MODEL_PRICE_OUTPUT: "1.5",
    });
    expect(model).toEqual({
      settings: {
        kind: "openai-compatible",
        baseUrl: "http://127.0.0.1:11434/v1",
        model: "qwen2.5-coder:14b",
        apiKey: KEY,
        inputTokenLimit: 16_000,
        monthlyBudgetCents: null,
      },
      prices: { "qwen2.5-coder:14b": { input: 0.5, output: 1.5 } },
    });
    expect(describeReviewer(model)).toBe("built-in + openai-compatible qwen2.5-coder:14b at 127.0.0.1:11434");
    expect(describeReviewer(model)).not.toContain(KEY);
  });

  it("refuses an OpenAI-compatible server without its address, without quoting the key", () => {
    const read = () =>
      qualityModelFromEnv({
        ARGUS_QUALITY_MODEL_KIND: "openai-compatible",
        ARGUS_QUALITY_MODEL: "llama",
        ARGUS_QUALITY_MODEL_API_KEY: KEY,
      });
    expect(read).toThrow(/ARGUS_QUALITY_MODEL_BASE_URL is required/);
    expect(read).not.toThrow(new RegExp(KEY));
  });
});
