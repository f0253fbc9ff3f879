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

/** A cost in micro-dollars as text: `$0.0123`; under a dollar keeps four decimals, so a cheap review does not read as free. */
export function costText(micros: number): string {
  const dollars = micros / 1_000_000;
  return `$${dollars >= 1 ? dollars.toFixed(2) : dollars.toFixed(4)}`;
}
