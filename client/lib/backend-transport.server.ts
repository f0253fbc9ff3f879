/**
 * How the loaders' API client reaches the backend. The gateway's page handler (page-handler.ts)
 * sets a Fetch over node:http with kept-alive connections: per call it costs about a third less CPU
 * than the global fetch, and a render makes one to four calls (docs/performance.md, seventh round).
 * Unset, the client uses the global fetch, which the route tests replace with their fakes.
 */
import http from "node:http";
import https from "node:https";
import { lostToStaleSocket, UPSTREAM_AGENT_OPTIONS } from "../../shared/node/stale-socket.ts";

let transport: typeof fetch | undefined;

export function backendTransport(): typeof fetch | undefined {
  return transport;
}

export function setBackendTransport(fetchImplementation: typeof fetch): void {
  transport = fetchImplementation;
}

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A Fetch over node:http for the loaders' calls: string bodies, headers as a record, an abort
 * signal. A safe call lost to a kept-alive socket the backend had just closed goes again once.
 */
export function nodeHttpFetch(): typeof fetch {
  const agents = {
    "http:": new http.Agent(UPSTREAM_AGENT_OPTIONS),
    "https:": new https.Agent(UPSTREAM_AGENT_OPTIONS),
  };
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      if (init.body != null && typeof init.body !== "string") {
        reject(new TypeError("the backend transport sends string bodies only"));
        return;
      }
      const url = new URL(input instanceof Request ? input.url : String(input));
      const secure = url.protocol === "https:";
      const attempt = (retried: boolean) => {
        const call = (secure ? https : http).request(
          url,
          {
            method: init.method ?? "GET",
            headers: init.headers as Record<string, string> | undefined,
            agent: secure ? agents["https:"] : agents["http:"],
            signal: init.signal ?? undefined,
          },
          (answer) => readAnswer(answer).then(resolve, reject),
        );
        call.on("error", (error: NodeJS.ErrnoException) => {
          if (!retried && lostToStaleSocket(call, error)) attempt(true);
          else reject(error);
        });
        call.end(init.body ?? undefined);
      };
      attempt(false);
    });
}

/** The answer read whole (the backend answers JSON), as a Response. */
async function readAnswer(answer: http.IncomingMessage): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  const status = answer.statusCode ?? 502;
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (value) for (const item of value) headers.append(name, item);
  }
  return new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), {
    status,
    statusText: answer.statusMessage,
    headers,
  });
}
