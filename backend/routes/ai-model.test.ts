import * as v from "valibot";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AiModelRequest } from "../../shared/contract/ai-model.ts";
import {
  AI_MODEL,
  aiModelResponseSchema,
  aiModelTestResponseSchema,
  INPUT_TOKEN_LIMIT,
} from "../../shared/contract/ai-model.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../../tests/support/fake-model-servers.ts";
import { githubProjectRow } from "../../tests/support/project-rows.ts";
import { bearerCalls, testBackends } from "../../tests/support/test-backend.ts";
import { modelSettingsReader } from "../ai-models/reader.ts";
import { apiKeyContext } from "../ai-models/store.ts";
import type { Backend } from "../app.ts";
import {
  type CreateModelProvider,
  ModelError,
  type ModelSettings,
} from "../review/reviewers/ai/model-provider.ts";
import { utcMonth } from "../review/reviewers/ai/pricing.ts";
import { createSecretBox } from "../secrets/secret-box.ts";
import { AI_MODEL_TESTS_PER_MINUTE } from "./ai-model.ts";

const API_KEY = "sk-test-4f1c0ffee9d2b7a1e5c3";
const SECRETS_KEY = Buffer.alloc(32, 1);
const OTHER_KEY = Buffer.alloc(32, 2);

const OLLAMA: AiModelRequest = {
  kind: "openai-compatible",
  baseUrl: "http://localhost:11434/v1",
  model: "qwen2.5-coder:14b",
  apiKey: API_KEY,
  inputTokenLimit: 64_000,
  monthlyBudgetCents: 2_500,
};

/** The provider a connection test gets: answers as scripted, and remembers what it was made with. */
function scriptedProvider() {
  const made: ModelSettings[] = [];
  let failure: ModelError | undefined;
  const create: CreateModelProvider = (settings) => {
    made.push(settings);
    return {
      review: () => Promise.reject(new Error("a connection test never reviews")),
      testConnection: async () => {
        if (failure) throw failure;
        return { reply: "pong", usage: { inputTokens: 9, outputTokens: 1 }, latencyMs: 42 };
      },
    };
  };
  return { create, made, failWith: (error: ModelError | undefined) => (failure = error) };
}

describe.each(TEST_DATABASE_KINDS)("the AI model API (%s)", (kind) => {
  const backends = testBackends(kind);
  const provider = scriptedProvider();
  const logLines: string[] = [];
  let backend: Backend;
  const { get, put, post, delete: remove } = bearerCalls(() => backend.app);

  beforeAll(async () => {
    backend = await backends.start(
      { SECRETS_ENCRYPTION_KEY: SECRETS_KEY.toString("base64") },
      {
        createModelProvider: provider.create,
        logger: createLogger(
          { name: "test", level: "debug" },
          { write: (line: string) => logLines.push(line) },
        ),
      },
    );
  });
  afterAll(() => backends.stop());
  beforeEach(() => {
    provider.made.length = 0;
    provider.failWith(undefined);
  });

  async function storedRow(orgId: string) {
    return backend.db
      .selectFrom("ai_models")
      .selectAll()
      .where("org_id", "=", orgId)
      .executeTakeFirstOrThrow();
  }

  it("answers not configured before anything is saved", async () => {
    const { token } = await signedInAccount(backend, "fresh");
    const answer = await get(token, API_PATHS.aiModel);
    expect(answer.status).toBe(200);
    expect(v.parse(aiModelResponseSchema, answer.body).data).toEqual({ configured: false });
  });

  it("saves the model with the key encrypted at rest and answers only that a key is set", async () => {
    const { token, orgId } = await signedInAccount(backend, "save");
    const saved = await put(token, API_PATHS.aiModel, { ...OLLAMA, baseUrl: "http://localhost:11434/v1/" });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(AI_MODEL.saved);
    const expected = {
      configured: true,
      kind: "openai-compatible",
      baseUrl: "http://localhost:11434/v1",
      model: "qwen2.5-coder:14b",
      apiKeySet: true,
      inputTokenLimit: 64_000,
      monthlyBudgetCents: 2_500,
    };
    expect(v.parse(aiModelResponseSchema, saved.body).data).toMatchObject(expected);
    const read = await get(token, API_PATHS.aiModel);
    expect(v.parse(aiModelResponseSchema, read.body).data).toMatchObject(expected);
    for (const answer of [saved, read]) expect(answer.text).not.toContain(API_KEY);

    const row = await storedRow(orgId);
    expect(row.api_key_ciphertext).toMatch(/^v1:/);
    expect(row.api_key_ciphertext).not.toContain(API_KEY);
    expect(row.api_key_ciphertext).not.toContain(Buffer.from(API_KEY).toString("base64"));
    const box = createSecretBox({ key: SECRETS_KEY, previousKeys: [], keyFile: undefined });
    expect(await box.open(row.api_key_ciphertext ?? "", apiKeyContext(orgId))).toEqual({
      ok: true,
      value: API_KEY,
    });

    // What the review pipeline reads: the key decrypted.
    const reader = modelSettingsReader({
      db: backend.db,
      secrets: box,
      logger: createLogger({ name: "t", level: "silent" }),
    });
    // What was saved, with the key decrypted again.
    expect(await reader(orgId)).toEqual(OLLAMA);
  });

  it("keeps the stored key when apiKey is absent, replaces it with a string and removes it with null", async () => {
    const { token, orgId } = await signedInAccount(backend, "key-moves");
    await put(token, API_PATHS.aiModel, OLLAMA).expect(200);
    const first = (await storedRow(orgId)).api_key_ciphertext;

    const { apiKey: _kept, ...withoutKey } = OLLAMA;
    const kept = await put(token, API_PATHS.aiModel, { ...withoutKey, model: "llama3.1:8b" });
    expect(kept.body.data).toMatchObject({ apiKeySet: true, model: "llama3.1:8b" });
    expect((await storedRow(orgId)).api_key_ciphertext).toBe(first);

    await put(token, API_PATHS.aiModel, { ...OLLAMA, apiKey: "sk-replaced-key" }).expect(200);
    const replaced = (await storedRow(orgId)).api_key_ciphertext;
    expect(replaced).not.toBe(first);
    const reader = modelSettingsReader({
      db: backend.db,
      secrets: createSecretBox({ key: SECRETS_KEY, previousKeys: [], keyFile: undefined }),
      logger: createLogger({ name: "t", level: "silent" }),
    });
    expect((await reader(orgId))?.apiKey).toBe("sk-replaced-key");

    const removed = await put(token, API_PATHS.aiModel, { ...OLLAMA, apiKey: null });
    expect(removed.body.data).toMatchObject({ apiKeySet: false });
    expect((await storedRow(orgId)).api_key_ciphertext).toBeNull();
    expect((await reader(orgId))?.apiKey).toBeNull();
  });

  it("refuses invalid settings with the shared messages", async () => {
    const { token, orgId } = await signedInAccount(backend, "invalid");
    const cases: [Record<string, unknown>, string][] = [
      [{ baseUrl: null }, `baseUrl: ${AI_MODEL.baseUrlRequired}`],
      [{ baseUrl: "" }, `baseUrl: ${AI_MODEL.baseUrlRequired}`],
      [{ baseUrl: "ftp://models.example.com" }, `baseUrl: ${AI_MODEL.baseUrlInvalid}`],
      [{ baseUrl: "localhost:11434" }, `baseUrl: ${AI_MODEL.baseUrlInvalid}`],
      [{ model: "  " }, `model: ${AI_MODEL.modelRequired}`],
      [{ kind: "gemini" }, `kind: ${AI_MODEL.kindInvalid}`],
      [{ inputTokenLimit: INPUT_TOKEN_LIMIT.min - 1 }, `inputTokenLimit: ${AI_MODEL.inputTokenLimit}`],
      [{ inputTokenLimit: INPUT_TOKEN_LIMIT.max + 1 }, `inputTokenLimit: ${AI_MODEL.inputTokenLimit}`],
      [{ inputTokenLimit: 32_000.5 }, `inputTokenLimit: ${AI_MODEL.inputTokenLimit}`],
      [{ monthlyBudgetCents: -1 }, `monthlyBudgetCents: ${AI_MODEL.budgetCents}`],
      [{ monthlyBudgetCents: 10.5 }, `monthlyBudgetCents: ${AI_MODEL.budgetCents}`],
      [{ apiKey: "" }, `apiKey: ${AI_MODEL.apiKeyInvalid}`],
      [{ apiKey: "k".repeat(5000) }, `apiKey: ${AI_MODEL.apiKeyInvalid}`],
    ];
    for (const [change, message] of cases) {
      const answer = await put(token, API_PATHS.aiModel, { ...OLLAMA, ...change });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body).toMatchObject({ code: ERROR_CODES.invalidRequest, message });
    }
    expect(
      await backend.db.selectFrom("ai_models").where("org_id", "=", orgId).selectAll().execute(),
    ).toEqual([]);

    // OpenAI and Anthropic have a default address; no budget means no cap.
    const openai = await put(token, API_PATHS.aiModel, {
      ...OLLAMA,
      kind: "openai",
      baseUrl: null,
      model: "gpt-4.1-mini",
      monthlyBudgetCents: null,
    });
    expect(openai.body.data).toMatchObject({ kind: "openai", baseUrl: null, monthlyBudgetCents: null });
  });

  it("keeps each organisation's model to itself", async () => {
    const a = await signedInAccount(backend, "iso-a");
    const b = await signedInAccount(backend, "iso-b");
    await put(a.token, API_PATHS.aiModel, OLLAMA).expect(200);
    expect((await get(b.token, API_PATHS.aiModel)).body.data).toEqual({ configured: false });
    await put(b.token, API_PATHS.aiModel, { ...OLLAMA, apiKey: null, model: "b-model" }).expect(200);
    expect((await get(a.token, API_PATHS.aiModel)).body.data).toMatchObject({
      model: "qwen2.5-coder:14b",
      apiKeySet: true,
    });

    // A test without a key in the body uses the caller's organisation's stored key, never another's.
    const { apiKey: _none, ...withoutKey } = OLLAMA;
    await post(b.token, API_PATHS.aiModelTest, withoutKey).expect(200);
    expect(provider.made.at(-1)?.apiKey).toBeNull();

    await remove(b.token, API_PATHS.aiModel).expect(200);
    expect((await get(a.token, API_PATHS.aiModel)).body.data).toMatchObject({ configured: true });

    // A sealed key copied into another organisation's row does not open there.
    const sealed = (await storedRow(a.orgId)).api_key_ciphertext;
    await put(b.token, API_PATHS.aiModel, { ...OLLAMA, apiKey: null }).expect(200);
    await backend.db
      .updateTable("ai_models")
      .set({ api_key_ciphertext: sealed })
      .where("org_id", "=", b.orgId)
      .execute();
    expect((await get(b.token, API_PATHS.aiModel)).body.data).toMatchObject({ apiKeySet: false });
  });

  it("answers this month's AI reviews of the caller's organisation: tokens and cost, unpriced ones counted apart", async () => {
    const a = await signedInAccount(backend, "usage-a");
    const b = await signedInAccount(backend, "usage-b");
    await put(a.token, API_PATHS.aiModel, OLLAMA).expect(200);
    const { start, end } = utcMonth(new Date());
    const spend = async (orgId: string, at: Date | null, tokens: [number, number], micros: number | null) => {
      const { id: projectId } = await backend.db
        .insertInto("projects")
        .values(githubProjectRow(orgId, `usage-${orgId.slice(0, 8)}-${Math.random()}`))
        .returning("id")
        .executeTakeFirstOrThrow();
      await backend.db
        .insertInto("review_runs")
        .values({
          org_id: orgId,
          project_id: projectId,
          pull_request: 1,
          trigger: "opened",
          status: "succeeded",
          ai_outcome: at ? "reviewed" : "over_budget",
          ai_model: OLLAMA.model,
          ai_input_tokens: tokens[0],
          ai_output_tokens: tokens[1],
          ai_cost_micros: micros,
          ai_at: at,
        })
        .execute();
    };
    await spend(a.orgId, start, [1_000, 100], 250_000);
    await spend(a.orgId, new Date(end.getTime() - 1), [2_000, 200], null);
    // Not counted: last month's, a pass that never called the model, another organisation's.
    await spend(a.orgId, new Date(start.getTime() - 1), [9_000, 900], 9_000_000);
    await spend(a.orgId, null, [0, 0], null);
    await spend(b.orgId, start, [7_000, 700], 7_000_000);

    const answer = v.parse(aiModelResponseSchema, (await get(a.token, API_PATHS.aiModel)).body).data;
    expect(answer.configured && answer.thisMonth).toEqual({
      since: start.toISOString(),
      until: end.toISOString(),
      reviews: 2,
      unpricedReviews: 1,
      inputTokens: 3_000,
      outputTokens: 300,
      costMicros: 250_000,
    });
  });

  it("removes the model: reviews go back to the built-in reviewer", async () => {
    const { token, orgId } = await signedInAccount(backend, "remove");
    await put(token, API_PATHS.aiModel, OLLAMA).expect(200);
    const removed = await remove(token, API_PATHS.aiModel);
    expect(removed.status).toBe(200);
    expect(v.parse(aiModelResponseSchema, removed.body)).toEqual({
      success: true,
      message: AI_MODEL.removed,
      data: { configured: false },
    });
    expect((await get(token, API_PATHS.aiModel)).body.data).toEqual({ configured: false });
    const reader = modelSettingsReader({
      db: backend.db,
      secrets: createSecretBox({ key: SECRETS_KEY, previousKeys: [], keyFile: undefined }),
      logger: createLogger({ name: "t", level: "silent" }),
    });
    expect(await reader(orgId)).toBeNull();
  });

  it("tests the form's values, with the stored key when the body names none, and answers the reply", async () => {
    const { token } = await signedInAccount(backend, "test-ok");
    const { apiKey: _none, ...withoutKey } = OLLAMA;
    await put(token, API_PATHS.aiModel, OLLAMA).expect(200);

    const stored = await post(token, API_PATHS.aiModelTest, { ...withoutKey, model: "unsaved-model" });
    expect(stored.status).toBe(200);
    expect(v.parse(aiModelTestResponseSchema, stored.body).data).toEqual({
      ok: true,
      reply: "pong",
      latencyMs: 42,
    });
    expect(provider.made).toEqual([{ ...OLLAMA, model: "unsaved-model" }]);
    expect(stored.text).not.toContain(API_KEY);

    await post(token, API_PATHS.aiModelTest, { ...OLLAMA, apiKey: "sk-typed-in-form" }).expect(200);
    await post(token, API_PATHS.aiModelTest, { ...OLLAMA, apiKey: null }).expect(200);
    expect(provider.made.slice(1).map((settings) => settings.apiKey)).toEqual(["sk-typed-in-form", null]);

    const invalid = await post(token, API_PATHS.aiModelTest, { ...OLLAMA, baseUrl: null });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(`baseUrl: ${AI_MODEL.baseUrlRequired}`);
  });

  it("answers a failing test with the failure kind and the provider's message", async () => {
    const { token } = await signedInAccount(backend, "test-fail");
    provider.failWith(new ModelError("unauthorized", "The model server answered 401 Unauthorized"));
    const answer = await post(token, API_PATHS.aiModelTest, OLLAMA);
    expect(answer.status).toBe(200);
    expect(v.parse(aiModelTestResponseSchema, answer.body).data).toEqual({
      ok: false,
      failure: "unauthorized",
      message: "The model server answered 401 Unauthorized",
    });
  });

  it("limits connection tests per organisation", async () => {
    const limited = await signedInAccount(backend, "limited");
    const other = await signedInAccount(backend, "not-limited");
    // The window is the clock's minute: start the calls at the next one, so they all fall in one.
    vi.useFakeTimers({ toFake: ["Date"], now: Math.ceil((Date.now() + 1) / 60_000) * 60_000 });
    try {
      for (let test = 0; test < AI_MODEL_TESTS_PER_MINUTE; test++) {
        await post(limited.token, API_PATHS.aiModelTest, OLLAMA).expect(200);
      }
      const refused = await post(limited.token, API_PATHS.aiModelTest, OLLAMA);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: ERROR_CODES.rateLimited,
        message: AI_MODEL.testRateLimited,
      });
      await post(other.token, API_PATHS.aiModelTest, OLLAMA).expect(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads a key sealed with a key no longer configured as not set, and logs it without secret material", async () => {
    const { token, orgId } = await signedInAccount(backend, "rotated");
    await put(token, API_PATHS.aiModel, OLLAMA).expect(200);
    const other = createSecretBox({ key: OTHER_KEY, previousKeys: [], keyFile: undefined });
    const sealedElsewhere = await other.seal(API_KEY, apiKeyContext(orgId));
    await backend.db
      .updateTable("ai_models")
      .set({ api_key_ciphertext: sealedElsewhere })
      .where("org_id", "=", orgId)
      .execute();
    logLines.length = 0;

    const answer = await get(token, API_PATHS.aiModel);
    expect(answer.body.data).toMatchObject({ configured: true, apiKeySet: false });
    const warning = logLines
      .map((line) => JSON.parse(line))
      .find((line) => /cannot be decrypted/.test(line.msg));
    expect(warning).toMatchObject({ orgId, reason: "unknown-key" });
    expect(JSON.stringify(warning)).not.toContain(sealedElsewhere.split(":")[3]);

    // The key it was sealed with, kept as a previous key, opens it again (rotation).
    const rotated = createSecretBox({ key: SECRETS_KEY, previousKeys: [OTHER_KEY], keyFile: undefined });
    const reader = modelSettingsReader({
      db: backend.db,
      secrets: rotated,
      logger: createLogger({ name: "t", level: "silent" }),
    });
    expect((await reader(orgId))?.apiKey).toBe(API_KEY);
  });

  it("never writes an API key to the log", () => {
    // Every call of this suite so far, saves and tests with keys included, logged at debug level.
    expect(logLines.length).toBeGreaterThan(0);
    const log = logLines.join("\n");
    for (const key of [API_KEY, "sk-replaced-key", "sk-typed-in-form"]) expect(log).not.toContain(key);
  });
});

describe("a connection test with the AI SDK provider against a fake OpenAI-compatible server", () => {
  const backends = testBackends("pglite");
  const logLines: string[] = [];
  let backend: Backend;
  let server: FakeModelServer;
  const { put, post } = bearerCalls(() => backend.app);

  beforeAll(async () => {
    server = await startFakeOpenAiServer({ requireKey: API_KEY });
    backend = await backends.start(
      {},
      {
        logger: createLogger(
          { name: "test", level: "debug" },
          { write: (line: string) => logLines.push(line) },
        ),
      },
    );
  });
  afterAll(async () => {
    await backends.stop();
    await server.close();
  });

  it("answers the model's reply with the stored key, and the server's refusal of a wrong one", async () => {
    const { token } = await signedInAccount(backend, "real");
    const settings = { ...OLLAMA, baseUrl: server.baseUrl };
    await put(token, API_PATHS.aiModel, settings).expect(200);
    server.script({ text: "OK" });
    const { apiKey: _stored, ...withoutKey } = settings;
    const ok = await post(token, API_PATHS.aiModelTest, withoutKey);
    expect(v.parse(aiModelTestResponseSchema, ok.body).data).toMatchObject({ ok: true, reply: "OK" });
    expect(server.requests.at(-1)?.carriesKey(API_KEY)).toBe(true);

    const refused = await post(token, API_PATHS.aiModelTest, { ...settings, apiKey: "sk-wrong-key" });
    const failure = v.parse(aiModelTestResponseSchema, refused.body).data;
    expect(failure).toMatchObject({ ok: false, failure: "unauthorized" });
    expect(refused.text).not.toContain("sk-wrong-key");

    // Another base URL needs its own key, or none: the stored one stays with its address.
    const unreachable = await post(token, API_PATHS.aiModelTest, {
      ...settings,
      apiKey: null,
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(v.parse(aiModelTestResponseSchema, unreachable.body).data).toMatchObject({
      ok: false,
      failure: "unreachable",
    });

    const log = logLines.join("\n");
    for (const key of [API_KEY, "sk-wrong-key"]) expect(log).not.toContain(key);
  });
});
