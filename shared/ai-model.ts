/**
 * The kinds of AI model an organisation can point the review engine at (docs/review-engine.md,
 * "AI reviewer"). Plain data, no schemas, so a page can list them without loading zod.
 */
export const MODEL_KINDS = [
  { value: "openai", label: "OpenAI" },
  { value: "anthropic", label: "Anthropic" },
  { value: "openai-compatible", label: "OpenAI-compatible server (Ollama, vLLM, LM Studio, a gateway)" },
] as const;
export type ModelKind = (typeof MODEL_KINDS)[number]["value"];
