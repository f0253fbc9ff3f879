/**
 * The organisation's AI model (docs/product.md#settingsai-model, docs/decisions/018-ai-model-settings.md):
 * read, save, remove, and test a model's settings before saving them. Every member reads it; only
 * the organisation's owner changes, removes or tests it, and the stored key only ever goes to the
 * kind and base URL it was saved with (docs/decisions/030-model-outbound-calls.md). The API key goes
 * in, never out: answers say `apiKeySet` only, and no log line carries it.
 */
import type { Response, Router } from "express";
import {
  AI_MODEL,
  type AiModelRequest,
  type AiModelResponse,
  type AiModelTestResponse,
  aiModelRequestSchema,
  mayChangeAiModel,
  storedKeyServes,
} from "../../shared/contract/ai-model.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { type ModelCallLimit, takeModelCall } from "../ai-models/call-limits.ts";
import {
  type AiModelStoreDeps,
  deleteAiModel,
  readAiModel,
  type StoredAiModel,
  saveAiModel,
} from "../ai-models/store.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Clock } from "../billing/clock.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { OutboundAddressError, resolveOutbound } from "../net/outbound-address.ts";
import type { ModelAddressPolicy } from "../review/reviewers/ai/ai-sdk-provider.ts";
import { refusedAddressMessage } from "../review/reviewers/ai/model-errors.ts";
import {
  type CreateModelProvider,
  ModelError,
  type ModelSettings,
} from "../review/reviewers/ai/model-provider.ts";
import { monthUsage } from "../review/reviewers/ai/pricing.ts";

/** Connection tests call out to a model server: a few a minute per organisation. */
export const AI_MODEL_TESTS_PER_MINUTE = 10;
const TEST_LIMIT: ModelCallLimit = { calls: AI_MODEL_TESTS_PER_MINUTE, windowSeconds: 60 };
/** How long a connection test may take before it counts as a timeout. */
const TEST_TIMEOUT_MS = 30_000;

export interface AiModelRouteDeps extends AiModelStoreDeps {
  createModelProvider: CreateModelProvider;
  /** Which addresses a base URL may resolve to (checked again on every call by the provider). */
  addresses: ModelAddressPolicy;
  /** The month the usage shown is counted in: the review engine's clock, which the budget uses. */
  clock: Clock;
}

async function currentModel(deps: AiModelRouteDeps, orgId: string): Promise<AiModelResponse["data"]> {
  const stored = await readAiModel(deps, orgId);
  if (!stored) return { configured: false };
  const { apiKey, ...settings } = stored.settings;
  return {
    configured: true,
    ...settings,
    apiKeySet: apiKey !== null,
    updatedAt: stored.updatedAt.toISOString(),
    thisMonth: await monthUsage(deps.db, orgId, deps.clock()),
  };
}

const orgIdOf = (res: Response) => sessionOf(res).org.id;

/** Members read the model; changing where the organisation's code is sent is the owner's call. */
function requireOwner(res: Response): void {
  if (!mayChangeAiModel(sessionOf(res).user.role)) {
    throw new HttpError(403, { error: AI_MODEL.ownerOnly, message: AI_MODEL.ownerOnly });
  }
}

const invalidField = (field: keyof AiModelRequest, message: string) =>
  new HttpError(400, {
    error: "Invalid request body",
    code: ERROR_CODES.invalidRequest,
    message: `${field}: ${message}`,
  });

/**
 * A request without a key keeps (or tests with) the stored one, but only for the kind and base URL
 * it was saved with: to another address the key must be sent, so a stored key never goes there.
 */
function checkStoredKeyServes(stored: StoredAiModel | null, request: AiModelRequest): void {
  if (request.apiKey !== undefined || !stored?.settings.apiKey) return;
  if (!storedKeyServes(stored.settings, request)) throw invalidField("apiKey", AI_MODEL.apiKeyRequired);
}

/**
 * Refuses a base URL whose host resolves to an address the deployment never calls, so the form
 * says so on save. A host that does not resolve now may later: the call itself checks again.
 */
async function checkBaseUrl(addresses: ModelAddressPolicy, baseUrl: string | null): Promise<void> {
  if (baseUrl === null) return;
  try {
    await resolveOutbound(new URL(baseUrl).hostname, addresses.policy, addresses.lookupHost);
  } catch (error) {
    if (error instanceof OutboundAddressError) {
      throw invalidField("baseUrl", refusedAddressMessage(error.addressClass));
    }
  }
}

export function aiModelRouter(deps: AiModelRouteDeps): Router {
  const router = strictRouter();

  router.get(API_PATHS.aiModel, async (_req, res) => {
    res.json({ success: true, data: await currentModel(deps, orgIdOf(res)) } satisfies AiModelResponse);
  });

  router.put(API_PATHS.aiModel, async (req, res) => {
    requireOwner(res);
    const request = parseRequest(aiModelRequestSchema, req.body);
    const orgId = orgIdOf(res);
    checkStoredKeyServes(await readAiModel(deps, orgId), request);
    await checkBaseUrl(deps.addresses, request.baseUrl);
    await saveAiModel(deps, orgId, request);
    res.json({
      success: true,
      message: AI_MODEL.saved,
      data: await currentModel(deps, orgId),
    } satisfies AiModelResponse);
  });

  router.delete(API_PATHS.aiModel, async (_req, res) => {
    requireOwner(res);
    await deleteAiModel(deps.db, orgIdOf(res));
    res.json({
      success: true,
      message: AI_MODEL.removed,
      data: { configured: false },
    } satisfies AiModelResponse);
  });

  router.post(API_PATHS.aiModelTest, async (req, res) => {
    requireOwner(res);
    const request = parseRequest(aiModelRequestSchema, req.body);
    const orgId = orgIdOf(res);
    const stored = await readAiModel(deps, orgId);
    checkStoredKeyServes(stored, request);
    const settings: ModelSettings = {
      ...request,
      apiKey: request.apiKey === undefined ? (stored?.settings.apiKey ?? null) : request.apiKey,
    };
    const taken = await takeModelCall(deps.db, orgId, "test", TEST_LIMIT, new Date());
    if (!taken.ok) {
      res.setHeader("Retry-After", String(taken.retryAfterSeconds));
      throw new HttpError(429, {
        error: AI_MODEL.testRateLimited,
        code: ERROR_CODES.rateLimited,
        message: AI_MODEL.testRateLimited,
      });
    }
    res.json({
      success: true,
      data: await testConnection(deps.createModelProvider, settings),
    } satisfies AiModelTestResponse);
  });

  return router;
}

/** The model's reply and latency, or the provider's reason it failed; anything else is a 500. */
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
