/** /settings/ai-model loaded on the server, for the first HTML (docs/product.md#settingsai-model). */

import { AI_MODEL } from "../../../shared/contract/ai-model.ts";
import { type AiModelResponse, aiModelResponseSchema } from "../../../shared/contract/ai-model-schemas.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import { type LoadResult, settle } from "../../lib/load-result.server";

export function loadAiModel(api: Pick<ApiClient, "request">): Promise<LoadResult<AiModelResponse["data"]>> {
  return settle(
    api.request(aiModelResponseSchema, API_PATHS.aiModel).then((answer) => answer.data),
    AI_MODEL.loadFailed,
  );
}
