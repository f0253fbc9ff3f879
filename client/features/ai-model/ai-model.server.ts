/** /settings/ai-model loaded on the server, for the first HTML (docs/product.md#settingsai-model). */

import {
  AI_MODEL,
  type AiModelResponse,
  type aiModelResponseSchema,
} from "../../../shared/contract/ai-model.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import { type LoadResult, settle } from "../../lib/load-result.server";

export function loadAiModel(api: Pick<ApiClient, "call">): Promise<LoadResult<AiModelResponse["data"]>> {
  return settle(
    api.call<typeof aiModelResponseSchema>(API_PATHS.aiModel).then((answer) => answer.data),
    AI_MODEL.loadFailed,
  );
}
