/**
 * What the AI model's settings let a caller make the backend do (docs/security.md, "Calling
 * user-supplied addresses"; docs/decisions/030-model-outbound-calls.md): where the stored key may
 * go, who may change the model, which addresses are called, whether redirects are followed and
 * what of an upstream answer comes back. The backend runs the real provider (the AI SDK) against
 * fake servers on loopback that record what reaches them.
 */

import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as v from "valibot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AI_MODEL, type AiModelRequest, aiModelTestResponseSchema } from "../../shared/contract/ai-model.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { signedInAccount, signedInMember } from "../../tests/support/backend-sessions.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../../tests/support/fake-model-servers.ts";
import { bearerCalls, testBackends } from "../../tests/support/test-backend.ts";
import { saveAiModel } from "../ai-models/store.ts";
import type { Backend } from "../app.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

const SAVED_KEY = "sk-saved-7d3e1f9a2b4c6d8e";
const METADATA_HOST = "metadata.attacker.test";

/** A server that answers every request with a redirect to `location`, and counts what it got. */
async function startRedirector(location: () => string) {
  const hits: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request);
    response.writeHead(307, { location: location() });
    response.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    hits,
    close: async () => {
      server.close();
      await once(server, "close");
    },
  };
}

describe("the AI model's outbound calls, with private addresses allowed (a local model)", () => {
  const backends = testBackends("pglite");
  let backend: Backend;
  let provider: FakeModelServer;
  let attacker: FakeModelServer;
  let redirectToAttacker: Awaited<ReturnType<typeof startRedirector>>;
  let redirectToMetadata: Awaited<ReturnType<typeof startRedirector>>;
  const { get, put, post, delete: remove } = bearerCalls(() => backend.app);

  /** The model an owner saved: OpenAI through a company proxy (the fake provider) with a key. */
  const saved = (): AiModelRequest => ({
    kind: "openai",
    baseUrl: provider.baseUrl,
    model: "gpt-4.1-mini",
    apiKey: SAVED_KEY,
    inputTokenLimit: 32_000,
    monthlyBudgetCents: null,
  });
  const withoutKey = (request: AiModelRequest) => {
    const { apiKey: _none, ...rest } = request;
    return rest;
  };

  beforeAll(async () => {
    provider = await startFakeOpenAiServer({ requireKey: SAVED_KEY });
    attacker = await startFakeOpenAiServer();
    redirectToAttacker = await startRedirector(() => `${attacker.url}/latest/meta-data/`);
    redirectToMetadata = await startRedirector(() => "http://169.254.169.254/latest/meta-data/iam/");
    backend = await backends.start(
      { AI_MODEL_ALLOW_PRIVATE_ADDRESSES: "true" },
      {
        // The one name tests can point anywhere: here at the cloud's metadata service.
        lookupHost: async (hostname) =>
          hostname === METADATA_HOST
            ? [{ address: "169.254.169.254", family: 4 }]
            : [{ address: "127.0.0.1", family: 4 }],
      },
    );
  });
  afterAll(async () => {
    await backends.stop();
    await Promise.all([
      provider.close(),
      attacker.close(),
      redirectToAttacker.close(),
      redirectToMetadata.close(),
    ]);
  });
  beforeEach(() => {
    provider.reset();
    attacker.reset();
  });

  const testFailure = async (token: string, request: Record<string, unknown>) => {
    const answer = await post(token, API_PATHS.aiModelTest, request);
    expect(answer.status, answer.text).toBe(200);
    return v.parse(aiModelTestResponseSchema, answer.body).data;
  };

  it("never sends the saved key to another address: a test with another kind or base URL needs the key", async () => {
    const { token } = await signedInAccount(backend, "key-owner");
    await put(token, API_PATHS.aiModel, saved()).expect(200);

    const elsewhere = [
      { ...withoutKey(saved()), kind: "openai-compatible", baseUrl: attacker.baseUrl },
      { ...withoutKey(saved()), baseUrl: attacker.baseUrl },
      { ...withoutKey(saved()), kind: "openai-compatible" },
    ];
    for (const request of elsewhere) {
      const answer = await post(token, API_PATHS.aiModelTest, request);
      expect(attacker.requests.some((sent) => sent.carriesKey(SAVED_KEY))).toBe(false);
      expect(answer.status, JSON.stringify(request)).toBe(400);
      expect(answer.body).toMatchObject({
        code: ERROR_CODES.invalidRequest,
        message: `apiKey: ${AI_MODEL.apiKeyRequired}`,
      });
    }
    expect(attacker.requests).toEqual([]);
    expect(provider.requests).toEqual([]);

    // Where it was saved for, the saved key still serves (another model name changes nothing).
    provider.script({ text: "OK" });
    const same = await testFailure(token, { ...withoutKey(saved()), model: "gpt-4.1" });
    expect(same).toMatchObject({ ok: true, reply: "OK" });
    expect(provider.requests.at(-1)?.carriesKey(SAVED_KEY)).toBe(true);

    // A key typed in goes where the caller says: it is theirs to send.
    attacker.script({ text: "OK" });
    await testFailure(token, {
      ...saved(),
      kind: "openai-compatible",
      baseUrl: attacker.baseUrl,
      apiKey: "sk-typed",
    });
    expect(attacker.requests.at(-1)?.carriesKey("sk-typed")).toBe(true);
  });

  it("saves another kind or base URL only with the key given again, or removed", async () => {
    const { token, orgId } = await signedInAccount(backend, "key-save");
    await put(token, API_PATHS.aiModel, saved()).expect(200);

    const moved = await put(token, API_PATHS.aiModel, {
      ...withoutKey(saved()),
      kind: "openai-compatible",
      baseUrl: attacker.baseUrl,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe(`apiKey: ${AI_MODEL.apiKeyRequired}`);
    const row = await backend.db
      .selectFrom("ai_models")
      .select(["kind", "base_url"])
      .where("org_id", "=", orgId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: "openai", base_url: provider.baseUrl });

    // Unchanged kind and base URL keep the key; a removed key goes nowhere.
    await put(token, API_PATHS.aiModel, { ...withoutKey(saved()), model: "gpt-4.1" }).expect(200);
    const removed = await put(token, API_PATHS.aiModel, {
      ...saved(),
      kind: "openai-compatible",
      baseUrl: attacker.baseUrl,
      apiKey: null,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ apiKeySet: false, baseUrl: attacker.baseUrl });
  });

  it("does not carry a kept key to another address even past the route's check (two saves racing)", async () => {
    const { token, orgId } = await signedInAccount(backend, "key-race");
    await put(token, API_PATHS.aiModel, saved()).expect(200);
    // What a save that read the row before another save moved it would write: no key, new address.
    const noSealing = {} as SecretBox;
    const silent = createLogger({ name: "test", level: "silent" });
    await saveAiModel({ db: backend.db, secrets: noSealing, logger: silent }, orgId, {
      ...withoutKey(saved()),
      kind: "openai-compatible",
      baseUrl: attacker.baseUrl,
    });
    const row = await backend.db
      .selectFrom("ai_models")
      .select(["base_url", "api_key_ciphertext"])
      .where("org_id", "=", orgId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ base_url: attacker.baseUrl, api_key_ciphertext: null });
  });

  it("lets only the organisation's owner change, remove or test the model; a member reads it", async () => {
    const owner = await signedInAccount(backend, "org-owner");
    await put(owner.token, API_PATHS.aiModel, saved()).expect(200);
    const member = await signedInMember(backend, owner.orgId, "org-member");
    expect(member.role).not.toBe("owner");

    const refusals = [
      await put(member.token, API_PATHS.aiModel, {
        ...saved(),
        kind: "openai-compatible",
        baseUrl: attacker.baseUrl,
      }),
      await remove(member.token, API_PATHS.aiModel),
      await post(member.token, API_PATHS.aiModelTest, withoutKey(saved())),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: AI_MODEL.ownerOnly, message: AI_MODEL.ownerOnly });
    }
    expect(attacker.requests).toEqual([]);
    expect(provider.requests).toEqual([]);
    const read = await get(member.token, API_PATHS.aiModel);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ configured: true, kind: "openai", baseUrl: provider.baseUrl });
  });

  it("refuses a base URL with a query, a fragment or credentials before calling anything", async () => {
    const { token } = await signedInAccount(backend, "url-shape");
    const cases: [string, string][] = [
      [`${attacker.url}/admin/x?y=`, AI_MODEL.baseUrlQuery],
      [`${attacker.url}/v1?`, AI_MODEL.baseUrlQuery],
      [`${attacker.url}/v1#x`, AI_MODEL.baseUrlQuery],
      [attacker.baseUrl.replace("http://", "http://admin:hunter2@"), AI_MODEL.baseUrlCredentials],
    ];
    for (const [baseUrl, message] of cases) {
      const request = { ...saved(), kind: "openai-compatible", baseUrl, apiKey: "sk-typed" };
      for (const answer of [
        await post(token, API_PATHS.aiModelTest, request),
        await put(token, API_PATHS.aiModel, request),
      ]) {
        expect(answer.status, baseUrl).toBe(400);
        expect(answer.body.message).toBe(`baseUrl: ${message}`);
      }
    }
    expect(attacker.requests).toEqual([]);
  });

  it("does not follow a redirect, to a metadata address or anywhere else", async () => {
    const { token } = await signedInAccount(backend, "redirects");
    const toAttacker = await testFailure(token, {
      ...saved(),
      kind: "openai-compatible",
      baseUrl: redirectToAttacker.baseUrl,
    });
    expect(redirectToAttacker.hits).toHaveLength(1);
    expect(attacker.requests).toEqual([]);
    expect(toAttacker).toEqual({
      ok: false,
      failure: "redirected",
      message: "The model server answered 307 Temporary Redirect; redirects are not followed",
    });

    const started = performance.now();
    const toMetadata = await testFailure(token, {
      ...saved(),
      kind: "openai-compatible",
      baseUrl: redirectToMetadata.baseUrl,
    });
    expect(toMetadata).toMatchObject({ ok: false, failure: "redirected" });
    expect(redirectToMetadata.hits).toHaveLength(1);
    // Refused at once, not after trying to reach 169.254.169.254.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("refuses a metadata or link-local address, typed or resolved, even with private addresses allowed", async () => {
    const { token } = await signedInAccount(backend, "metadata");
    const refused = [
      `http://${METADATA_HOST}/v1`,
      "http://169.254.169.254/latest",
      "http://[::ffff:169.254.169.254]/v1",
      "http://169.254.10.20:11434/v1",
      "http://[fe80::1]:11434/v1",
      "http://[fd00:ec2::254]/v1",
    ];
    for (const baseUrl of refused) {
      const request = { ...saved(), kind: "openai-compatible", baseUrl, apiKey: "sk-typed" };
      const failure = await testFailure(token, request);
      expect(failure, baseUrl).toMatchObject({ ok: false, failure: "address_refused" });
      expect(failure.ok === false && failure.message).toMatch(
        /^The model server's address is (link-local|a cloud metadata address), which is never called$/,
      );
      const save = await put(token, API_PATHS.aiModel, request);
      expect(save.status, baseUrl).toBe(400);
      expect(save.body.message).toMatch(/^baseUrl: The model server's address is /);
    }
  });

  it("never echoes what the model server answered with an error", async () => {
    const { token } = await signedInAccount(backend, "no-echo");
    const secret = "db_password=hunter2 (internal admin panel)";
    const request = { ...saved(), kind: "openai-compatible", baseUrl: attacker.baseUrl, apiKey: "sk-typed" };
    const answers = [
      { status: 400, message: secret },
      { status: 403, message: secret },
      { status: 404, body: `<html><body>${secret}</body></html>` },
      { status: 500, message: secret },
      { status: 200, body: `<html><body>${secret}</body></html>` },
      { status: 200, body: { note: secret } },
    ];
    for (const answer of answers) {
      attacker.reset();
      attacker.defaultAnswer = answer;
      const response = await post(token, API_PATHS.aiModelTest, request);
      expect(response.status).toBe(200);
      expect(response.text, JSON.stringify(answer)).not.toContain("hunter2");
      expect(response.body.data).toMatchObject({ ok: false });
    }
  });
});

describe("the AI model's outbound calls, with private addresses not allowed (a shared deployment)", () => {
  const backends = testBackends("pglite");
  let backend: Backend;
  let internal: FakeModelServer;
  const { put, post } = bearerCalls(() => backend.app);

  beforeAll(async () => {
    internal = await startFakeOpenAiServer();
    backend = await backends.start({ AI_MODEL_ALLOW_PRIVATE_ADDRESSES: "false" });
  });
  afterAll(async () => {
    await backends.stop();
    await internal.close();
  });

  it("refuses loopback, typed or resolved (localhost), and calls nothing", async () => {
    const { token } = await signedInAccount(backend, "private-off");
    const port = new URL(internal.url).port;
    for (const baseUrl of [
      `http://localhost:${port}/v1`,
      `http://127.0.0.1:${port}/v1`,
      `http://[::ffff:127.0.0.1]:${port}/v1`,
    ]) {
      const request = {
        kind: "openai-compatible",
        baseUrl,
        model: "internal",
        apiKey: null,
        inputTokenLimit: 32_000,
        monthlyBudgetCents: null,
      };
      const answer = await post(token, API_PATHS.aiModelTest, request);
      expect(answer.status).toBe(200);
      expect(v.parse(aiModelTestResponseSchema, answer.body).data, baseUrl).toEqual({
        ok: false,
        failure: "address_refused",
        message:
          "The model server's address is loopback, which this deployment does not call (AI_MODEL_ALLOW_PRIVATE_ADDRESSES)",
      });
      const save = await put(token, API_PATHS.aiModel, request);
      expect(save.status).toBe(400);
    }
    expect(internal.requests).toEqual([]);
  });
});
