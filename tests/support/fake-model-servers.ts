/**
 * Local stand-ins for the AI model servers the review engine talks to, on 127.0.0.1 port 0,
 * answering in the providers' documented shapes. For tests (vitest) and scripts (the quality
 * benchmark); they never reach the internet.
 *
 * - `startFakeOpenAiServer()`: an OpenAI(-compatible) server. `POST /v1/chat/completions` answers a
 *   `chat.completion` (`choices[0].message.content`, `finish_reason`, `usage.prompt_tokens` /
 *   `completion_tokens` / `total_tokens`); errors are `{ error: { message, type, param, code } }`.
 *   `GET /v1/models` lists `models` (`{ object: "list", data: [{ id, object: "model", ... }] }`).
 * - `startFakeAnthropicServer()`: `POST /v1/messages` answers a `message` (`content` blocks,
 *   `stop_reason`, `usage.input_tokens` / `output_tokens`); errors are
 *   `{ type: "error", error: { type, message } }`. Structured output: when the request offers a tool
 *   named `json` (what @ai-sdk/anthropic sends for models without native structured output) a JSON
 *   answer is a `tool_use` block of that tool with the object as `input`; otherwise (native
 *   `output_config.format`) it is a `text` block with the JSON.
 * - `startFakeModelServers()`: both, with one `close()`.
 *
 * Point `ModelSettings.baseUrl` at `server.baseUrl` (`http://127.0.0.1:<port>/v1`).
 *
 * Each server answers its queue of scripted answers in order (`server.script(a, b, …)` appends),
 * then `server.defaultAnswer` (`{ json: { findings: [] } }` unless set). An answer is one of:
 *   { json: value }                  the model's content is JSON.stringify(value)
 *   { text: "…" }                    the model's content verbatim (malformed JSON, a fenced answer, "OK");
 *                                    with `truncated: true` the model stopped at its output limit
 *                                    (`finish_reason: "length"`, `stop_reason: "max_tokens"`)
 *   { status, message?, body?, headers? }  an HTTP answer; without `body`, the provider's error shape
 *                                    with `message` (or a stock message for the status); a string
 *                                    `body` is sent as it is (text/html: a proxy's error page), any
 *                                    other as JSON; `headers` e.g. { "retry-after": "2" }
 *   { hang: true }                   never answers (the client's timeout must fire)
 * and any answer may add `delayMs` (wait before answering) and `usage` ({ inputTokens,
 * outputTokens } for this answer; the server's `usage` option otherwise, default 100 in / 20 out).
 *
 * `requireKey`: when set, a request without that key (OpenAI: `Authorization: Bearer`, Anthropic:
 * `x-api-key`) is answered 401 in the provider's shape before the queue is read.
 *
 * `server.requests` records every request received: method, path, headers (the key's header
 * replaced by "[redacted]", so printing a request never shows a key), parsed JSON body, `text` (the
 * system prompt and every message's text, joined by blank lines, for asserting prompts) and
 * `carriesKey(key)` (whether that key was sent in the provider's header). `server.reset()` empties
 * the queue and the record and restores the default answer.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export type FakeModelAnswer = (
  | { json: unknown }
  | { text: string; truncated?: boolean }
  | { status: number; message?: string; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
) & { delayMs?: number; usage?: Partial<FakeModelUsage> };

export interface FakeModelRequest {
  method: string;
  path: string;
  /** As received, with the key's header replaced by "[redacted]". */
  headers: Record<string, string>;
  /** The parsed JSON body (null for a request without one). */
  body: unknown;
  /** The system prompt and every message's text, joined by blank lines. */
  text: string;
  /** Whether the request carried this key in the provider's key header. */
  carriesKey(key: string): boolean;
}

export interface FakeModelServerOptions {
  /** Answer 401 to requests without this key. */
  requireKey?: string;
  /** Token usage of answers that do not set their own. */
  usage?: FakeModelUsage;
  /** Model ids `GET /v1/models` lists (OpenAI only). */
  models?: string[];
}

export interface FakeModelServer {
  /** The origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** What `ModelSettings.baseUrl` takes: `${url}/v1`. */
  baseUrl: string;
  /** Appends answers to the queue. */
  script(...answers: FakeModelAnswer[]): void;
  /** Answered when the queue is empty. */
  defaultAnswer: FakeModelAnswer;
  /** Scripted answers not yet given. */
  readonly pending: number;
  readonly requests: FakeModelRequest[];
  reset(): void;
  close(): Promise<void>;
}

export interface FakeModelServers {
  openai: FakeModelServer;
  anthropic: FakeModelServer;
  close(): Promise<void>;
}

const DEFAULT_ANSWER: FakeModelAnswer = { json: { findings: [] } };
const DEFAULT_USAGE: FakeModelUsage = { inputTokens: 100, outputTokens: 20 };
const REDACTED = "[redacted]";

/** What differs between the two providers: where the key goes, how answers and errors look. */
interface Dialect {
  answerPath: string;
  keyHeader: "authorization" | "x-api-key";
  keyOf(headerValue: string): string;
  requestText(body: Record<string, unknown>): string;
  answer(
    body: Record<string, unknown>,
    content: Content,
    usage: FakeModelUsage,
    id: number,
    truncated: boolean,
  ): unknown;
  error(status: number, message: string): unknown;
  unauthorized: string;
}

type Content = { kind: "json"; value: unknown } | { kind: "text"; text: string };

const contentText = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" && "text" in part ? String(part.text) : ""))
    .filter(Boolean)
    .join("\n");
};

const messagesText = (messages: unknown): string[] =>
  Array.isArray(messages) ? messages.map((message) => contentText(message?.content)) : [];

const STOCK_MESSAGES: Record<number, string> = {
  400: "Invalid request.",
  401: "Invalid API key.",
  403: "Permission denied.",
  404: "Not found.",
  429: "Rate limit reached for requests.",
  500: "The server had an error while processing your request.",
  503: "The server is overloaded.",
};

const OPENAI_ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ["invalid_request_error", null],
  401: ["invalid_request_error", "invalid_api_key"],
  403: ["invalid_request_error", "unsupported_country_region_territory"],
  404: ["invalid_request_error", "model_not_found"],
  429: ["requests", "rate_limit_exceeded"],
};

const openAiDialect: Dialect = {
  answerPath: "/v1/chat/completions",
  keyHeader: "authorization",
  keyOf: (value) => value.replace(/^Bearer\s+/i, ""),
  requestText: (body) => messagesText(body.messages).join("\n\n"),
  answer: (body, content, usage, id, truncated) => ({
    id: `chatcmpl-fake${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: content.kind === "json" ? JSON.stringify(content.value) : content.text,
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: truncated ? "length" : "stop",
      },
    ],
    usage: {
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    },
  }),
  error: (status, message) => {
    const [type, code] = OPENAI_ERROR_TYPES[status] ?? ["server_error", null];
    return { error: { message, type, param: null, code } };
  },
  unauthorized:
    "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
};

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

const offersJsonTool = (body: Record<string, unknown>): boolean =>
  Array.isArray(body.tools) && body.tools.some((tool) => tool?.name === "json");

const anthropicDialect: Dialect = {
  answerPath: "/v1/messages",
  keyHeader: "x-api-key",
  keyOf: (value) => value,
  requestText: (body) => {
    const system = Array.isArray(body.system) ? contentText(body.system) : String(body.system ?? "");
    return [system, ...messagesText(body.messages)].filter(Boolean).join("\n\n");
  },
  answer: (body, content, usage, id, truncated) => {
    const asTool = content.kind === "json" && offersJsonTool(body);
    return {
      id: `msg_fake${id}`,
      type: "message",
      role: "assistant",
      model: body.model,
      content: asTool
        ? [{ type: "tool_use", id: `toolu_fake${id}`, name: "json", input: content.value }]
        : [{ type: "text", text: content.kind === "json" ? JSON.stringify(content.value) : content.text }],
      stop_reason: truncated ? "max_tokens" : asTool ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
  },
  error: (status, message) => ({
    type: "error",
    error: { type: ANTHROPIC_ERROR_TYPES[status] ?? "api_error", message },
  }),
  unauthorized: "invalid x-api-key",
};

const readBody = async (request: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
};

const sendBody = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  if (typeof body !== "string") return sendJson(response, status, body, headers);
  response.writeHead(status, { "content-type": "text/html", ...headers });
  response.end(body);
};

const startFakeServer = async (
  dialect: Dialect,
  options: FakeModelServerOptions,
): Promise<FakeModelServer> => {
  const queue: FakeModelAnswer[] = [];
  const requests: FakeModelRequest[] = [];
  const baseUsage = options.usage ?? DEFAULT_USAGE;
  let answered = 0;

  const record = (request: IncomingMessage, body: unknown): FakeModelRequest => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const keyHeader = headers[dialect.keyHeader];
    const sentKey = keyHeader === undefined ? null : dialect.keyOf(keyHeader);
    if (sentKey !== null) headers[dialect.keyHeader] = REDACTED;
    const recorded: FakeModelRequest = {
      method: request.method ?? "GET",
      path: request.url ?? "/",
      headers,
      body,
      text: body && typeof body === "object" ? dialect.requestText(body as Record<string, unknown>) : "",
      carriesKey: (key) => sentKey === key,
    };
    requests.push(recorded);
    return recorded;
  };

  const answer = async (
    response: ServerResponse,
    body: Record<string, unknown>,
    scripted: FakeModelAnswer,
  ) => {
    if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if ("hang" in scripted) return;
    if ("status" in scripted) {
      const message = scripted.message ?? STOCK_MESSAGES[scripted.status] ?? `HTTP ${scripted.status}`;
      sendBody(
        response,
        scripted.status,
        scripted.body ?? dialect.error(scripted.status, message),
        scripted.headers,
      );
      return;
    }
    const content: Content =
      "json" in scripted ? { kind: "json", value: scripted.json } : { kind: "text", text: scripted.text };
    const usage = { ...baseUsage, ...scripted.usage };
    answered += 1;
    const truncated = "truncated" in scripted && scripted.truncated === true;
    sendJson(response, 200, dialect.answer(body, content, usage, answered, truncated));
  };

  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const recorded = record(request, body);
    const path = recorded.path.split("?")[0];
    if (options.requireKey !== undefined && !recorded.carriesKey(options.requireKey)) {
      sendJson(response, 401, dialect.error(401, dialect.unauthorized));
      return;
    }
    if (request.method === "GET" && path === "/v1/models" && dialect === openAiDialect) {
      const created = Math.floor(Date.now() / 1000);
      const data = (options.models ?? ["fake-model"]).map((id) => ({
        id,
        object: "model",
        created,
        owned_by: "argus",
      }));
      sendJson(response, 200, { object: "list", data });
      return;
    }
    if (request.method !== "POST" || path !== dialect.answerPath) {
      sendJson(response, 404, dialect.error(404, `Unknown request: ${request.method} ${path}`));
      return;
    }
    if (!body || typeof body !== "object") {
      sendJson(response, 400, dialect.error(400, "The request body is not JSON."));
      return;
    }
    if ((body as { stream?: unknown }).stream === true) {
      sendJson(response, 400, dialect.error(400, "The fake model server does not stream."));
      return;
    }
    await answer(response, body as Record<string, unknown>, queue.shift() ?? fake.defaultAnswer);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeModelServer = {
    url,
    baseUrl: `${url}/v1`,
    script: (...answers) => {
      queue.push(...answers);
    },
    defaultAnswer: DEFAULT_ANSWER,
    get pending() {
      return queue.length;
    },
    requests,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      fake.defaultAnswer = DEFAULT_ANSWER;
    },
    close: async () => {
      // Hanging answers keep their sockets open; close them so the server can stop.
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  return fake;
};

export const startFakeOpenAiServer = (options: FakeModelServerOptions = {}) =>
  startFakeServer(openAiDialect, options);

export const startFakeAnthropicServer = (options: FakeModelServerOptions = {}) =>
  startFakeServer(anthropicDialect, options);

export const startFakeModelServers = async (
  options: FakeModelServerOptions = {},
): Promise<FakeModelServers> => {
  const [openai, anthropic] = await Promise.all([
    startFakeOpenAiServer(options),
    startFakeAnthropicServer(options),
  ]);
  return {
    openai,
    anthropic,
    close: async () => {
      await Promise.all([openai.close(), anthropic.close()]);
    },
  };
};
