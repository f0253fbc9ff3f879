/**
 * The organisation's AI model (docs/product.md#ai-model, docs/decisions/018-ai-model-settings.md):
 * read, save, remove, and test a model's settings before saving them. Like the review settings, any
 * signed-in member of the organisation may change it. The API key goes in, never out: answers say
 * `apiKeySet` only, and no log line carries it.
 */
import type { Response, Router } from "express";
import { rateLimit } from "express-rate-limit";
import {
  type AiModelResponse,
  type AiModelTestResponse,
  aiModelRequestSchema,
} from "../../shared/ai-model-contract.ts";
import { AI_MODEL } from "../../shared/ai-model-messages.ts";
import { API_PATHS, ERROR_CODES, type ErrorBody } from "../../shared/contract.ts";
import { type AiModelStoreDeps, deleteAiModel, readAiModel, saveAiModel } from "../ai-models/store.ts";
import { sessionOf } from "../auth/require-session.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { type CreateModelProvider, ModelError, type ModelSettings } from "../review/ai/model-provider.ts";

/** Connection tests call out to a model server: a few a minute per organisation. */
export const AI_MODEL_TESTS_PER_MINUTE = 10;
/** How long a connection test may take before it counts as a timeout. */
const TEST_TIMEOUT_MS = 30_000;

export interface AiModelRouteDeps extends AiModelStoreDeps {
  createModelProvider: CreateModelProvider;
}

async function currentModel(deps: AiModelStoreDeps, orgId: string): Promise<AiModelResponse["data"]> {
  const stored = await readAiModel(deps, orgId);
  if (!stored) return { configured: false };
  const { apiKey, ...settings } = stored.settings;
  return {
    configured: true,
    ...settings,
    apiKeySet: apiKey !== null,
    updatedAt: stored.updatedAt.toISOString(),
  };
}

const orgIdOf = (res: Response) => sessionOf(res).org.id;

export function aiModelRouter(deps: AiModelRouteDeps): Router {
  const router = strictRouter();

  router.get(API_PATHS.aiModel, async (_req, res) => {
    res.json({ success: true, data: await currentModel(deps, orgIdOf(res)) } satisfies AiModelResponse);
  });

  router.put(API_PATHS.aiModel, async (req, res) => {
    const request = parseRequest(aiModelRequestSchema, req.body);
    const orgId = orgIdOf(res);
    await saveAiModel(deps, orgId, request);
    res.json({
      success: true,
      message: AI_MODEL.saved,
      data: await currentModel(deps, orgId),
    } satisfies AiModelResponse);
  });

  router.delete(API_PATHS.aiModel, async (_req, res) => {
    await deleteAiModel(deps.db, orgIdOf(res));
    res.json({
      success: true,
      message: AI_MODEL.removed,
      data: { configured: false },
    } satisfies AiModelResponse);
  });

  router.post(
    API_PATHS.aiModelTest,
    rateLimit({
      windowMs: 60_000,
      limit: AI_MODEL_TESTS_PER_MINUTE,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      keyGenerator: (_req, res) => orgIdOf(res),
      handler: (_req, res) => {
        res.status(429).json({
          error: AI_MODEL.testRateLimited,
          code: ERROR_CODES.rateLimited,
          message: AI_MODEL.testRateLimited,
        } satisfies ErrorBody);
      },
    }),
    async (req, res) => {
      const { apiKey, ...request } = parseRequest(aiModelRequestSchema, req.body);
      const settings: ModelSettings = {
        ...request,
        apiKey:
          apiKey === undefined ? ((await readAiModel(deps, orgIdOf(res)))?.settings.apiKey ?? null) : apiKey,
      };
      res.json({
        success: true,
        data: await testConnection(deps.createModelProvider, settings),
      } satisfies AiModelTestResponse);
    },
  );

  return router;
}

/** The model's reply and latency, or the provider's exact reason it failed; anything else is a 500. */
async function testConnection(
  createModelProvider: CreateModelProvider,
  settings: ModelSettings,
): Promise<AiModelTestResponse["data"]> {
  try {
    const test = await createModelProvider(settings).testConnection(AbortSignal.timeout(TEST_TIMEOUT_MS));
    return { ok: true, reply: test.reply, latencyMs: test.latencyMs };
  } catch (error) {
    if (error instanceof ModelError) return { ok: false, failure: error.failure, message: error.message };
    throw error;
  }
}
