/**
 * The kinds of AI model an organisation can point the review engine at (docs/review-engine.md,
 * "AI reviewer"), and who may change one, with what key. Plain data and rules, no schemas, so a
 * page can use them without loading zod.
 */
import { ORG_OWNER_ROLE } from "./constants.ts";

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
