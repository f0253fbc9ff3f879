import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServers, startFakeModelServers } from "../support/fake-model-servers.ts";

const KEY = "sk-fake-servers-3c1d";

let servers: FakeModelServers;
beforeAll(async () => {
  servers = await startFakeModelServers({ requireKey: KEY, usage: { inputTokens: 7, outputTokens: 3 } });
});
afterAll(async () => {
  await servers.close();
});
beforeEach(() => {
  servers.openai.reset();
  servers.anthropic.reset();
});

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("fake OpenAI server", () => {
  const chat = (body: unknown, key = KEY) =>
    post(`${servers.openai.baseUrl}/chat/completions`, { authorization: `Bearer ${key}` }, body);

  it("answers a chat completion with the scripted JSON, then the default answer, with usage", async () => {
    servers.openai.script({ json: { findings: [] }, usage: { inputTokens: 50 } });
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    };

    const first = await (await chat(body)).json();
    servers.openai.defaultAnswer = { text: "OK" };
    const second = await (await chat(body)).json();

    expect(first).toMatchObject({
      object: "chat.completion",
      model: "m",
      choices: [
        { index: 0, message: { role: "assistant", content: '{"findings":[]}' }, finish_reason: "stop" },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 3, total_tokens: 53 },
    });
    expect(second.choices[0].message.content).toBe("OK");
    expect(servers.openai.requests.map((request) => request.text)).toEqual([
      "Be brief.\n\nHi",
      "Be brief.\n\nHi",
    ]);
  });

  it("records the key's header redacted, and only says whether a key was sent", async () => {
    await chat({ model: "m", messages: [] });
    const [request] = servers.openai.requests;

    expect(request?.headers.authorization).toBe("[redacted]");
    expect(request?.carriesKey(KEY)).toBe(true);
    expect(request?.carriesKey("sk-other")).toBe(false);
    expect(inspect(servers.openai.requests, { depth: 10 })).not.toContain(KEY);
  });

  it("answers 401 in OpenAI's error shape to a wrong key, and scripted errors with their headers", async () => {
    const refused = await chat({ model: "m", messages: [] }, "sk-wrong");
    servers.openai.script({ status: 429, headers: { "retry-after": "2" } });
    const limited = await chat({ model: "m", messages: [] });

    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "invalid_api_key" },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toEqual({
      error: {
        message: "Rate limit reached for requests.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    });
  });

  it("lists its models", async () => {
    const response = await fetch(`${servers.openai.baseUrl}/models`, {
      headers: { authorization: `Bearer ${KEY}` },
    });

    expect(await response.json()).toMatchObject({
      object: "list",
      data: [{ id: "fake-model", object: "model" }],
    });
  });

  it("sends a string body as it is, like a proxy's error page", async () => {
    servers.openai.script({ status: 502, body: "<html><body>Bad gateway</body></html>" });

    const response = await chat({ model: "m", messages: [] });

    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("text/html");
    expect(await response.text()).toBe("<html><body>Bad gateway</body></html>");
  });
});

describe("fake Anthropic server", () => {
  const messages = (body: unknown) =>
    post(
      `${servers.anthropic.baseUrl}/messages`,
      { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
      body,
    );

  it("answers JSON as a tool_use block when the request offers the json tool, as text otherwise", async () => {
    servers.anthropic.script({ json: { findings: [] } }, { json: { findings: [] } });
    const base = {
      model: "m",
      max_tokens: 100,
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    };

    const asTool = await (await messages({ ...base, tools: [{ name: "json", input_schema: {} }] })).json();
    const asText = await (await messages(base)).json();

    expect(asTool).toMatchObject({
      type: "message",
      content: [{ type: "tool_use", name: "json", input: { findings: [] } }],
      stop_reason: "tool_use",
      usage: { input_tokens: 7, output_tokens: 3 },
    });
    expect(asText).toMatchObject({
      content: [{ type: "text", text: '{"findings":[]}' }],
      stop_reason: "end_turn",
    });
    expect(servers.anthropic.requests[0]?.headers["x-api-key"]).toBe("[redacted]");
  });

  it("answers errors in Anthropic's shape", async () => {
    servers.anthropic.script({ status: 529, message: "Overloaded" });

    const response = await messages({ model: "m", max_tokens: 10, messages: [] });

    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
  });
});
