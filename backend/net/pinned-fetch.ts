/**
 * A `fetch` for calls to addresses users typed (docs/decisions/030-model-outbound-calls.md): the
 * host is resolved and checked with backend/net/outbound-address.ts, the connection goes to the
 * checked addresses only, and redirects are never followed (as `redirect: "manual"`: a 3xx comes
 * back as it is, for the caller to treat as a failure). Built on node:http, whose `lookup` option
 * pins the socket; Node's own fetch takes no custom lookup without the undici package.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import {
  type HostLookup,
  type OutboundPolicy,
  pinnedLookup,
  resolveOutbound,
  systemHostLookup,
} from "./outbound-address.ts";

/** Statuses whose answer has no body (a Response built with one would throw). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function bodyBytes(body: RequestInit["body"]): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // The AI SDK sends JSON text; a stream or form would need more than these calls use.
  throw new TypeError("pinnedFetch sends text or bytes only");
}

function toResponse(answer: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
    headers.append(answer.rawHeaders[i] as string, answer.rawHeaders[i + 1] as string);
  }
  const status = answer.statusCode ?? 502;
  const empty = NULL_BODY_STATUSES.has(status) || method === "HEAD";
  if (empty) answer.resume();
  const body = empty ? null : (Readable.toWeb(answer) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: answer.statusMessage ?? "", headers });
}

/**
 * `fetch` calling only addresses `policy` allows. Rejects with OutboundAddressError before any
 * connection when the host resolves to a refused address, with the lookup's error when it does not
 * resolve, and like fetch on a network failure or an aborted signal.
 */
export function pinnedFetch(policy: OutboundPolicy, lookupHost: HostLookup = systemHostLookup): typeof fetch {
  return async (input, init = {}) => {
    if (input instanceof Request) throw new TypeError("pinnedFetch takes a URL, not a Request");
    const url = new URL(input);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`pinnedFetch calls http and https only, not ${url.protocol}`);
    }
    init.signal?.throwIfAborted();
    const addresses = await resolveOutbound(url.hostname, policy, lookupHost);
    init.signal?.throwIfAborted();
    const method = (init.method ?? "GET").toUpperCase();
    const headers: Record<string, string> = Object.fromEntries(new Headers(init.headers));
    const body = bodyBytes(init.body);
    if (body) headers["content-length"] = String(body.length);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const request = send(
        url,
        { method, headers, lookup: pinnedLookup(addresses), signal: init.signal ?? undefined },
        (answer) => {
          try {
            resolve(toResponse(answer, method));
          } catch (error) {
            answer.destroy();
            reject(error);
          }
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  };
}
