/**
 * The review pipeline's view of an organisation's model (backend/review/reviewers/ai/model-provider.ts): the
 * settings with the API key decrypted, or null for the built-in reviewer alone. A key no configured
 * key decrypts reads as null (and is logged without any secret material).
 */
import type { ModelSettingsReader } from "../review/reviewers/ai/model-provider.ts";
import { type AiModelStoreDeps, readAiModel } from "./store.ts";

export function modelSettingsReader(deps: AiModelStoreDeps): ModelSettingsReader {
  return async (orgId) => (await readAiModel(deps, orgId))?.settings ?? null;
}
