/**
 * The AI model form's checks and calls, from the browser (docs/product.md#settingsai-model): the form's
 * values checked with the contract's own schema (the backend's messages), save, remove and test.
 *
 * Only ever imported on demand (`aiModelApi`), never statically, to keep the call code off the
 * first load (docs/decisions/006-page-weight.md).
 */

import * as v from "valibot";
import {
  AI_MODEL,
  type AiModelFormValues,
  type AiModelRequest,
  type AiModelTestResponse,
  aiModelFormSchema,
  type aiModelResponseSchema,
  type aiModelTestResponseSchema,
  type ModelAddress,
  storedKeyServes,
} from "../../../shared/contract/ai-model.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";

const api = browserApiClient();

export type FormCheck =
  | { ok: true; request: AiModelRequest }
  | { ok: false; errors: Partial<Record<keyof AiModelFormValues, string>> };

/** What the form knows of the saved model: where its key may go, and whether "Remove" was pressed. */
export interface StoredKey {
  /** The saved model's kind and base URL when it has a key; null when there is none to keep. */
  savedFor: ModelAddress | null;
  removing: boolean;
}

/**
 * The form's values as a request, or the first message of each field that is wrong. An empty key
 * field keeps the stored key, which only serves the kind and base URL it was saved with (the
 * backend refuses the same way).
 */
export function checkAiModelForm(values: AiModelFormValues, storedKey?: StoredKey): FormCheck {
  const result = v.safeParse(aiModelFormSchema, values);
  if (result.success) {
    const request = result.output;
    const { savedFor, removing } = storedKey ?? { savedFor: null, removing: false };
    if (request.apiKey === undefined && !removing && savedFor && !storedKeyServes(savedFor, request)) {
      return { ok: false, errors: { apiKey: AI_MODEL.apiKeyRequired } };
    }
    return { ok: true, request };
  }
  const errors: Partial<Record<keyof AiModelFormValues, string>> = {};
  for (const issue of result.issues) {
    const field = issue.path?.[0]?.key as keyof AiModelFormValues;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** The backend's own words when it gave some (a refusal, the rate limit), else `fallback`. */
const failureMessage = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.body ? error.message : fallback;

export async function saveAiModel(request: AiModelRequest): Promise<Outcome> {
  try {
    const answer = await api.call<typeof aiModelResponseSchema>(API_PATHS.aiModel, {
      method: "PUT",
      body: request,
    });
    return { ok: true, message: answer.message ?? AI_MODEL.saved };
  } catch (error) {
    return { ok: false, message: failureMessage(error, AI_MODEL.saveFailed) };
  }
}

export async function removeAiModel(): Promise<Outcome> {
  try {
    const answer = await api.call<typeof aiModelResponseSchema>(API_PATHS.aiModel, { method: "DELETE" });
    return { ok: true, message: answer.message ?? AI_MODEL.removed };
  } catch (error) {
    return { ok: false, message: failureMessage(error, AI_MODEL.removeFailed) };
  }
}

/** The model's reply, the provider's exact failure, or why the test itself could not run. */
export async function testAiModel(
  request: AiModelRequest,
): Promise<AiModelTestResponse["data"] | { ok: false; failure: null; message: string }> {
  try {
    const answer = await api.call<typeof aiModelTestResponseSchema>(API_PATHS.aiModelTest, {
      method: "POST",
      body: request,
    });
    return answer.data;
  } catch (error) {
    return { ok: false, failure: null, message: failureMessage(error, AI_MODEL.testFailed) };
  }
}
