/**
 * The AI pass in words: the review summary's short section and the failure notes, one wording for
 * the summary, the run's log and the run page.
 */

import { MICROS_PER_CENT } from "../../../../shared/contract/ai-model.ts";
import type { RunAiOutcome } from "../../../../shared/contract/reviews.ts";
import { costText } from "../../../../shared/format.ts";
import { inertMarkdown, inlineCode } from "../../../../shared/inert-markdown.ts";
import type { ModelFailure, ModelUsage } from "./model-provider.ts";

const FAILURE_TEXT: Record<ModelFailure | "unexpected", string> = {
  timeout: "the model did not answer in time",
  rate_limited: "the model's provider is limiting requests (429)",
  server_error: "the model's server answered with an error",
  invalid_output: "the model's answer was not a valid list of findings, even after a repair request",
  unauthorized: "the model's provider refused the API key",
  bad_request: "the model's provider refused the request",
  unreachable: "the model's server could not be reached",
  address_refused: "the model's base URL resolves to an address this deployment does not call",
  redirected: "the model's server answered with a redirect, which is not followed",
  unexpected: "an unexpected error",
};

export const failureText = (failure: ModelFailure | "unexpected") => FAILURE_TEXT[failure];

export const overBudgetNote = (budgetCents: number) =>
  `the organisation's monthly AI budget (${costText(budgetCents * MICROS_PER_CENT)}) is spent`;

export const overCallLimitNote = (reviewsPerHour: number) =>
  `the organisation's limit of ${reviewsPerHour} AI ${reviewsPerHour === 1 ? "review" : "reviews"} an hour is reached (AI_MODEL_REVIEWS_PER_HOUR)`;

export const noPriceNote = (model: string) => `no price is known for ${model} (AI_MODEL_PRICES)`;

/** What the summary needs of an AI pass; the pass's persisted record has it all. */
export interface AiPassFacts {
  outcome: RunAiOutcome;
  model: string;
  anchored: number;
  moved: number;
  dropped: number;
  leftOut: string[];
  usage: ModelUsage | null;
  costMicros: number | null;
  note: string | null;
}

/** Files named in the summary, at most this many; the rest are counted. */
const LEFT_OUT_LISTED = 10;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The model's name is what a member typed and the paths are the pull request's: both posted inert. */
export function aiSummarySection(facts: AiPassFacts): string {
  const model = inertMarkdown(facts.model);
  if (facts.outcome !== "reviewed") {
    return `**AI review** (${model}): The AI review did not run: ${facts.note ?? "unknown reason"}. The built-in findings are posted.`;
  }
  const parts = [
    `${plural(facts.anchored, "finding")} on ${facts.anchored === 1 ? "its line" : "their lines"}`,
    `${facts.moved} not on a changed line the model named (no line comment)`,
    `${facts.dropped} dropped (the code it quoted is not there)`,
  ];
  const lines = [`**AI review** (${model}): ${parts.join(", ")}.`];
  if (facts.leftOut.length) {
    const named = facts.leftOut.slice(0, LEFT_OUT_LISTED).map((path) => inlineCode(path));
    const more = facts.leftOut.length - named.length;
    lines.push(
      `Not sent to the model (over its token limit): ${named.join(", ")}${more ? ` and ${more} more` : ""}.`,
    );
  }
  if (facts.usage) {
    const cost = facts.costMicros === null ? "cost unknown" : costText(facts.costMicros);
    lines.push(
      `${facts.usage.inputTokens.toLocaleString("en-US")} input and ${facts.usage.outputTokens.toLocaleString("en-US")} output tokens, ${cost}.`,
    );
  }
  return lines.join(" ");
}
