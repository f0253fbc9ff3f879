/** /settings/ai-model loaded on the server, for the first HTML (docs/product.md#ai-model). */

import { type AiModelResponse, aiModelResponseSchema } from "../../shared/ai-model-contract.ts";
import { AI_MODEL } from "../../shared/ai-model-messages.ts";
import type { ApiClient } from "../../shared/api-client.ts";
import { API_PATHS } from "../../shared/contract.ts";
import { type LoadResult, settle } from "./load-result.server";

export function loadAiModel(api: Pick<ApiClient, "request">): Promise<LoadResult<AiModelResponse["data"]>> {
  return settle(
    api.request(aiModelResponseSchema, API_PATHS.aiModel).then((answer) => answer.data),
    AI_MODEL.loadFailed,
  );
}
