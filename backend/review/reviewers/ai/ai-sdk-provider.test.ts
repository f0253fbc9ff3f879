import { once } from "node:events";
import { createServer } from "node:net";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type FakeModelServer,
  type FakeModelServers,
  startFakeModelServers,
} from "../../../../tests/support/fake-model-servers.ts";
import {
  type AiSdkProviderOptions,
  CONNECTION_TEST_PROMPT,
  createAiSdkModelProvider,
  type ModelAddressPolicy,
} from "./ai-sdk-provider.ts";
import { ModelError, type ModelKind, type ModelSettings } from "./model-provider.ts";

const KEY = "sk-argus-test-5f2c9a7e1b3d";

const FINDING = {
  path: "src/app.ts",
  line: 12,
  quote: "eval(input);",
  severity: "critical",
  title: "eval on user input",
  message: "Anyone who controls `input` runs code on the server.",
} as const;
const REVIEW = { findings: [FINDING] };
const REQUEST = { system: "You review pull requests.", prompt: "The numbered diff:\n12 + eval(input);" };

let servers: FakeModelServers;
beforeAll(async () => {
  servers = await startFakeModelServers({ requireKey: KEY });
});
afterAll(async () => {
  await servers.close();
});
beforeEach(() => {
  servers.openai.reset();
  servers.anthropic.reset();
});

interface Variant {
  name: string;
  kind: ModelKind;
  model: string;
  server: () => FakeModelServer;
  path: string;
  /** Where the request asked for the review schema. */
  askedSchema: (body: Record<string, unknown>) => unknown;
}

const openAiSchema = (body: Record<string, unknown>) =>
  (body.response_format as { type: string; json_schema: { schema: unknown } }).json_schema.schema;

const VARIANTS: Variant[] = [
  {
    name: "openai",
    kind: "openai",
    model: "gpt-4o-mini",
    server: () => servers.openai,
    path: "/v1/chat/completions",
    askedSchema: openAiSchema,
  },
  {
    name: "openai-compatible",
    kind: "openai-compatible",
    model: "qwen2.5-coder:7b",
    server: () => servers.openai,
    path: "/v1/chat/completions",
    askedSchema: openAiSchema,
  },
  {
    name: "anthropic (native structured output)",
    kind: "anthropic",
    model: "claude-sonnet-4-5",
    server: () => servers.anthropic,
    path: "/v1/messages",
    askedSchema: (body) => (body.output_config as { format: { schema: unknown } }).format.schema,
  },
  {
    name: "anthropic (JSON tool, a model the SDK does not know)",
    kind: "anthropic",
    model: "company-proxy-claude",
    server: () => servers.anthropic,
    path: "/v1/messages",
    askedSchema: (body) => (body.tools as { name: string; input_schema: unknown }[])[0]?.input_schema,
  },
];

const settingsFor = (variant: Variant, overrides: Partial<ModelSettings> = {}): ModelSettings => ({
  kind: variant.kind,
  baseUrl: variant.server().baseUrl,
  model: variant.model,
  apiKey: KEY,
  inputTokenLimit: 100_000,
  monthlyBudgetCents: null,
  ...overrides,
});

/** The fake servers listen on loopback, which a local model server is allowed. */
const LOCAL: ModelAddressPolicy = { policy: { allowPrivate: true } };

const providerFor = (
  variant: Variant,
  options: AiSdkProviderOptions = {},
  overrides: Partial<ModelSettings> = {},
  addresses: ModelAddressPolicy = LOCAL,
) => createAiSdkModelProvider(settingsFor(variant, overrides), addresses, { retryDelayMs: 10, ...options });

const modelError = async (promise: Promise<unknown>): Promise<ModelError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error("Expected a ModelError");
};

/** A loopback port nothing listens on. */
const closedPort = async (): Promise<number> => {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
};

describe.each(VARIANTS)("$name", (variant) => {
  it("answers the validated review with its token usage, asking for the schema with the key", async () => {
    variant.server().script({ json: REVIEW, usage: { inputTokens: 1200, outputTokens: 340 } });

    const answer = await providerFor(variant).review(REQUEST);

    expect(answer).toEqual({ review: REVIEW, usage: { inputTokens: 1200, outputTokens: 340 }, attempts: 1 });
    const [request] = variant.server().requests;
    expect(request?.path).toBe(variant.path);
    expect(request?.carriesKey(KEY)).toBe(true);
    expect(request?.text).toContain(REQUEST.system);
    expect(request?.text).toContain(REQUEST.prompt);
    expect(request?.body).toMatchObject({ model: variant.model });
    expect(variant.askedSchema(request?.body as Record<string, unknown>)).toMatchObject({
      required: ["findings"],
    });
  });

  it("accepts JSON in a code fence with words around it, in one request", async () => {
    variant
      .server()
      .script({ text: `Here is my review:\n\`\`\`json\n${JSON.stringify(REVIEW)}\n\`\`\`\nHope it helps.` });

    const answer = await providerFor(variant).review(REQUEST);

    expect(answer.review).toEqual(REVIEW);
    expect(answer.attempts).toBe(1);
  });

  it("repairs malformed JSON with a second request, summing the usage", async () => {
    const server = variant.server();
    server.script(
      {
        text: '{"findings": [{"path": "src/app.ts", "line": 12',
        usage: { inputTokens: 1000, outputTokens: 30 },
      },
      { json: REVIEW, usage: { inputTokens: 1100, outputTokens: 90 } },
    );

    const answer = await providerFor(variant).review(REQUEST);

    expect(answer).toEqual({ review: REVIEW, usage: { inputTokens: 2100, outputTokens: 120 }, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    const repair = server.requests[1]?.text ?? "";
    expect(repair).toContain(REQUEST.prompt);
    expect(repair).toContain('{"findings": [{"path": "src/app.ts", "line": 12');
    expect(repair).toContain("Your answer could not be used: the answer is not JSON");
  });

  it("repairs an answer of the wrong types, naming the field", async () => {
    const server = variant.server();
    server.script({ json: { findings: [{ ...FINDING, line: "abc" }] } }, { json: REVIEW });

    const answer = await providerFor(variant).review(REQUEST);

    expect(answer.review).toEqual(REVIEW);
    expect(answer.attempts).toBe(2);
    expect(server.requests[1]?.text).toContain(
      "findings.0.line: Invalid input: expected number, received string",
    );
  });

  it("fails invalid_output when the repaired answer is still invalid, with the tokens of both", async () => {
    variant.server().script(
      { text: "I found no problems.", usage: { inputTokens: 1000, outputTokens: 5 } },
      {
        json: { findings: [{ ...FINDING, severity: "blocker" }] },
        usage: { inputTokens: 1050, outputTokens: 60 },
      },
    );

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("invalid_output");
    expect(error.message).toBe(
      "The model's answer was not a valid review, even after one repair request: the JSON does not match the schema: " +
        'findings.0.severity: Invalid option: expected one of "critical"|"major"|"minor"|"info"',
    );
    expect(error.usage).toEqual({ inputTokens: 2050, outputTokens: 65 });
  });

  it("waits out a 429's retry-after and retries", async () => {
    const server = variant.server();
    server.script({ status: 429, headers: { "retry-after": "1" } }, { json: REVIEW });

    const started = performance.now();
    const answer = await providerFor(variant).review(REQUEST);

    expect(answer.review).toEqual(REVIEW);
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("fails rate_limited at once when the retry-after is longer than it waits", async () => {
    const server = variant.server();
    server.script({
      status: 429,
      headers: { "retry-after": "30" },
      message: "Rate limit reached for requests.",
    });

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(30);
    expect(error.message).toBe("The model server answered 429 Too Many Requests; retry after 30 s");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 500 twice, then fails server_error", async () => {
    const server = variant.server();
    server.defaultAnswer = { status: 500, message: "The server had an error while processing your request." };

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("server_error");
    expect(error.message).toBe("The model server answered 500 Internal Server Error");
    expect(server.requests).toHaveLength(3);
  });

  it("reads a proxy's HTML error page as its status", async () => {
    variant.server().defaultAnswer = {
      status: 502,
      body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
    };

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("server_error");
    expect(error.message).toBe("The model server answered 502 Bad Gateway");
  });

  it("fails unauthorized on a wrong key, without retrying and without the key in the message", async () => {
    const wrongKey = "sk-wrong-9d8e7f6a5b4c";
    const server = variant.server();

    const error = await modelError(providerFor(variant, {}, { apiKey: wrongKey }).review(REQUEST));

    expect(error.failure).toBe("unauthorized");
    expect(error.message).toBe("The model server answered 401 Unauthorized");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.carriesKey(wrongKey)).toBe(true);
  });

  it("never repeats a server's error message, so not the key it echoes either", async () => {
    variant.server().script({ status: 403, message: `Key ${KEY} may not use this model.` });

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("unauthorized");
    expect(error.message).toBe("The model server answered 403 Forbidden");
    expect(inspect(error, { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it("fails bad_request on an unknown model, in its own words rather than the server's", async () => {
    const message = `The model \`${variant.model}\` does not exist or you do not have access to it.`;
    variant.server().script({ status: 404, message });

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("bad_request");
    expect(error.message).toBe(
      "The model server answered 404 Not Found; check the model's name and the base URL",
    );
  });

  it("fails server_error when a 200 answer is not the provider's shape", async () => {
    variant.server().script({ status: 200, body: { hello: "world" } });

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("server_error");
    expect(error.message).toBe("The model server's answer is not in the provider's format");
  });

  it("keeps the first answer's tokens when the repair request fails", async () => {
    variant
      .server()
      .script(
        { text: "not JSON", usage: { inputTokens: 800, outputTokens: 10 } },
        { status: 400, message: "Too long." },
      );

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("bad_request");
    expect(error.usage).toEqual({ inputTokens: 800, outputTokens: 10 });
  });

  it("waits for a slow answer within the timeout", async () => {
    variant.server().script({ json: REVIEW, delayMs: 300 });

    const answer = await providerFor(variant, { timeoutMs: 5_000 }).review(REQUEST);

    expect(answer.review).toEqual(REVIEW);
  });

  it("fails timeout when the server never answers", async () => {
    variant.server().script({ hang: true });

    const started = performance.now();
    const error = await modelError(providerFor(variant, { timeoutMs: 300 }).review(REQUEST));

    expect(error.failure).toBe("timeout");
    expect(error.message).toBe("The model server did not answer within 0.3 s");
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("stops when the caller's signal aborts", async () => {
    variant.server().script({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);

    const error = await modelError(providerFor(variant).review({ ...REQUEST, signal: controller.signal }));

    expect(error.failure).toBe("timeout");
    expect(error.message).toBe("The model request was cancelled before the model answered");
  });

  it("fails unreachable when nothing listens at the base URL", async () => {
    const port = await closedPort();
    const provider = providerFor(variant, {}, { baseUrl: `http://127.0.0.1:${port}/v1` });

    const error = await modelError(provider.review(REQUEST));

    expect(error.failure).toBe("unreachable");
    expect(error.message).toBe(
      `Could not reach the model server at http://127.0.0.1:${port}: the connection was refused`,
    );
  });

  it("tests the connection with a tiny prompt", async () => {
    const server = variant.server();
    server.script({ text: "OK", usage: { inputTokens: 14, outputTokens: 1 } });

    const result = await providerFor(variant).testConnection();

    expect(result.reply).toBe("OK");
    expect(result.usage).toEqual({ inputTokens: 14, outputTokens: 1 });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests[0]?.text).toBe(CONNECTION_TEST_PROMPT);
    expect(server.requests[0]?.carriesKey(KEY)).toBe(true);
  });

  it("fails the connection test with the exact reason", async () => {
    variant.server().script({ status: 404, message: "model not found" });

    const error = await modelError(providerFor(variant).testConnection());

    expect(error.failure).toBe("bad_request");
    expect(error.message).toBe(
      "The model server answered 404 Not Found; check the model's name and the base URL",
    );
  });

  it("calls no address the deployment does not allow: loopback without private addresses", async () => {
    const error = await modelError(
      providerFor(variant, {}, {}, { policy: { allowPrivate: false } }).review(REQUEST),
    );

    expect(error.failure).toBe("address_refused");
    expect(error.message).toBe(
      "The model server's address is loopback, which this deployment does not call (AI_MODEL_ALLOW_PRIVATE_ADDRESSES)",
    );
    expect(variant.server().requests).toEqual([]);
  });

  it("refuses a host name resolving to a metadata address, whatever the policy", async () => {
    const metadata: ModelAddressPolicy = {
      policy: { allowPrivate: true },
      lookupHost: async () => [{ address: "169.254.169.254", family: 4 }],
    };
    const error = await modelError(
      providerFor(variant, {}, { baseUrl: "http://models.example.test/v1" }, metadata).review(REQUEST),
    );

    expect(error.failure).toBe("address_refused");
    expect(error.message).toBe(
      "The model server's address is a cloud metadata address, which is never called",
    );
  });

  it("fails redirected on a 3xx, without following it", async () => {
    const server = variant.server();
    server.script({ status: 302, headers: { location: `${server.url}/elsewhere` }, body: "" });

    const error = await modelError(providerFor(variant).review(REQUEST));

    expect(error.failure).toBe("redirected");
    expect(error.message).toBe("The model server answered 302 Found; redirects are not followed");
    expect(server.requests.map((request) => request.path)).toEqual([variant.path]);
  });
});

describe("settings", () => {
  const [openai, compatible, anthropic] = VARIANTS as [Variant, Variant, Variant];

  it("sends no request for OpenAI or Anthropic without a key (the server's environment key is never used)", async () => {
    for (const variant of [openai, anthropic]) {
      const error = await modelError(providerFor(variant, {}, { apiKey: null }).review(REQUEST));
      expect(error.failure).toBe("unauthorized");
    }
    expect(servers.openai.requests).toHaveLength(0);
    expect(servers.anthropic.requests).toHaveLength(0);
  });

  it("calls an OpenAI-compatible server without a key when none is set", async () => {
    const keyless = await startFakeModelServers();
    try {
      keyless.openai.script({ json: REVIEW });
      const provider = createAiSdkModelProvider(
        { ...settingsFor(compatible), baseUrl: keyless.openai.baseUrl, apiKey: null },
        LOCAL,
      );

      expect((await provider.review(REQUEST)).review).toEqual(REVIEW);
      expect(keyless.openai.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await keyless.close();
    }
  });

  it("needs a base URL for an OpenAI-compatible server", async () => {
    const error = await modelError(providerFor(compatible, {}, { baseUrl: null }).review(REQUEST));

    expect(error.failure).toBe("bad_request");
    expect(error.message).toBe("An OpenAI-compatible model needs the server's base URL");
  });

  it("cuts a long connection-test reply to 200 characters", async () => {
    servers.openai.script({ text: "OK ".repeat(200) });

    const result = await providerFor(openai).testConnection();

    expect(result.reply).toHaveLength(200);
  });
});

describe("the API key", () => {
  const logged: string[] = [];
  beforeEach(() => {
    logged.length = 0;
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((arg) => inspect(arg, { depth: 10 })).join(" "));
      });
    }
    // The AI SDK reports its warnings through process warnings.
    vi.spyOn(process, "emitWarning").mockImplementation((warning: string | Error) => {
      logged.push(inspect(warning, { depth: 10 }));
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("appears in no error and nothing logged, whatever fails", async () => {
    const errors: ModelError[] = [];
    for (const variant of VARIANTS) {
      const server = variant.server();
      server.script(
        { status: 401, message: `Incorrect API key provided: ${KEY}` },
        { status: 429, headers: { "retry-after": "60" }, message: `Too many requests for ${KEY}` },
        { status: 400, message: `Bad request from ${KEY}` },
        { text: `not json ${KEY}` },
        { text: `still not json ${KEY}` },
        { hang: true },
      );
      const provider = providerFor(variant, { timeoutMs: 200 });
      for (let i = 0; i < 5; i += 1) errors.push(await modelError(provider.review(REQUEST)));
      expect(server.pending).toBe(0);
    }

    expect(errors.map((error) => error.failure)).toEqual(
      VARIANTS.flatMap(() => ["unauthorized", "rate_limited", "bad_request", "invalid_output", "timeout"]),
    );
    for (const error of errors) {
      expect(error.message).not.toContain(KEY);
      expect(inspect(error, { depth: 10 })).not.toContain(KEY);
    }
    expect(logged.join("\n")).not.toContain(KEY);
  });
});

describe("an answer cut off at the output limit", () => {
  it.each(VARIANTS)("is repaired, its tokens counted ($name)", async (variant) => {
    const server = variant.server();
    server.script(
      { text: "", truncated: true, usage: { inputTokens: 900, outputTokens: 4096 } },
      { json: REVIEW, usage: { inputTokens: 950, outputTokens: 80 } },
    );

    const answer = await providerFor(variant).review(REQUEST);

    expect(answer).toEqual({ review: REVIEW, usage: { inputTokens: 1850, outputTokens: 4176 }, attempts: 2 });
    expect(server.requests[1]?.text).toContain("Your answer could not be used: the answer is empty");
  });
});
