/**
 * A model provider in process for the pipeline's tests: it answers from a script, one answer (or
 * error) per review request, and keeps the requests. Used by backend/review/pipeline*.test.ts.
 */
import {
  type CreateModelProvider,
  ModelError,
  type ModelFinding,
  type ModelReviewAnswer,
  type ModelReviewRequest,
} from "../../backend/review/reviewers/ai/model-provider.ts";

export const answer = (
  findings: ModelFinding[],
  inputTokens = 1_000,
  outputTokens = 200,
): ModelReviewAnswer => ({
  review: { findings },
  usage: { inputTokens, outputTokens },
  attempts: 1,
});

export function scriptedModel(script: Array<ModelReviewAnswer | ModelError>) {
  const requests: ModelReviewRequest[] = [];
  const create: CreateModelProvider = () => ({
    async review(request) {
      requests.push(request);
      const next = script.shift();
      if (!next) throw new Error("the script has no answer left");
      if (next instanceof ModelError) throw next;
      return structuredClone(next);
    },
    async testConnection() {
      throw new ModelError("bad_request", "not scripted");
    },
  });
  return { create, requests };
}
