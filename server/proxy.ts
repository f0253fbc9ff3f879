/**
 * The proxy of /api, /auth and /webhooks to the backend (docs/security.md lists what it guarantees).
 *
 * These paths take a path of their own on the node:http server, before Express
 * (docs/decisions/044-lean-proxied-path.md): `proxiedCalls` does for them only what a proxied call
 * needs, on the plain request and response: request id and log line, the fixed security headers,
 * compression of large JSON answers, the path and cross-site checks, the session, then for /auth
 * the rate limit and the gateway's own routes (auth-routes.ts), the body within its limit, and the
 * backend. An /api call's session is verified and refreshed here, but whether it is still live the
 * backend decides: it refuses an ended session with 401, and then this gateway ends it too. /auth
 * asks the backend as pages do (session-status.ts).
 *
 * Toward the backend only an allow-list of request headers passes; the bearer comes from the
 * verified cookie, the forwarded host and protocol from the configured public origin. The body is
 * read as raw bytes, decompressed within the size limit, and written upstream plain. Back from the
 * backend, Set-Cookie is dropped (only the gateway sets cookies), and no /auth answer keeps a
 * `token`: sign-in answers that carry one become the cookie instead.
 *
 * Event streams go over sockets of their own, capped per session; every request waits a bounded
 * time for its socket (docs/decisions/032-event-stream-limits.md).
 */
import {
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest } from "node:https";
import compression from "compression";
import express, { type Request, type Response } from "express";
import { EVENT_STREAM_RETRY_AFTER_SECONDS } from "../shared/constants.ts";
import {
  EVENT_STREAM_PATHS,
  PUBLIC_API_PATTERN,
  TOKEN_BEARING_AUTH_PATHS,
} from "../shared/contract/common.ts";
import type { Logger } from "../shared/node/logging.ts";
import { pathOf, plainRequestLogger, type RequestLog } from "../shared/node/logging.ts";
import { slotLimit } from "../shared/node/slot-limit.ts";
import { lostToStaleSocket } from "../shared/node/stale-socket.ts";
import type { AuthRoutes } from "./auth-routes.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError, sendJson } from "./errors.ts";
import { clientAddress, requestProtocol } from "./forwarded.ts";
import type { AuthRateLimit } from "./rate-limit.ts";
import { type FixedHeaders, isCrossSiteWrite, setFixedHeaders } from "./security.ts";
import { type Session, type SessionCookie, type SessionResolver, sessionTokenOf } from "./session.ts";
import type { SessionStatusChecker } from "./session-status.ts";
import { KeysUnavailableError, type TokenVerifier } from "./session-token.ts";
import { type UpstreamPool, upstreamPool } from "./upstream-pool.ts";

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");
const isAuth = (path: string) => path === "/auth" || path.startsWith("/auth/");
/** Code hosts' webhooks: public, authenticated by their signature, which the backend checks. */
const isWebhook = (path: string) => path.startsWith("/webhooks/");

/** The paths this proxy answers: their bodies come from the backend. */
export const isProxiedPath = (path: string) => isApi(path) || isAuth(path) || isWebhook(path);

/** The path of a request `proxiedCalls` answers, before Express; undefined for any other. */
export function plainProxiedPath(url: string | undefined): string | undefined {
  // An absolute-form request target (`GET http://host/api/x`) is left to Express, which refuses it.
  if (!url?.startsWith("/")) return undefined;
  const path = pathOf(url);
  return isProxiedPath(path) ? path : undefined;
}

/**
 * The path as a lenient router would see it (decoded, lower-case, no trailing slash), so that no
 * spelling of a sign-in path escapes the cookie handling.
 */
function canonicalPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // undecodable: keep as is
  }
  return decoded.toLowerCase().replace(/\/+$/, "") || "/";
}
/** Spelt any way, an event stream's path is one (its own pool, the per-session cap). */
const isEventStream = (path: string) => EVENT_STREAM_PATHS.includes(canonicalPath(path));
const carriesToken = (method: string | undefined, path: string) =>
  method === "POST" && TOKEN_BEARING_AUTH_PATHS.some((pattern) => pattern.test(canonicalPath(path)));

/**
 * Dot segments, encoded dots, encoded slashes and backslashes: a backend that normalises paths
 * could turn `/api/../x` into another route, and it would arrive with the bearer token.
 */
const UNSAFE_PATH = /(^|\/)\.\.?(\/|$)|%2e|%2f|%5c|\\/i;

/** Request headers the backend may see; everything else from the browser stays here. */
const FORWARDED_HEADERS = [
  "accept",
  "accept-language",
  "content-type",
  "user-agent",
  "if-none-match",
  "if-modified-since",
] as const;
/**
 * What a webhook needs besides: GitHub's event, delivery id and signature, Stripe's signature,
 * and the Basic auth that Azure DevOps service hooks prove themselves with (the gateway never
 * makes one from a session here).
 */
const WEBHOOK_HEADERS = [
  "x-github-event",
  "x-github-delivery",
  "x-hub-signature-256",
  "stripe-signature",
  "authorization",
] as const;
/** The backend's answer headers that describe its connection to us, not the answer. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "set-cookie"]);

/** Proxied answers at least this large are compressed, for a client that accepts it. */
const PROXIED_COMPRESSION_THRESHOLD = 1024;

export function acceptsEncoding(req: IncomingMessage): boolean {
  return /\b(?:gzip|br|deflate)\b/.test(req.headers["accept-encoding"] ?? "");
}

/**
 * The wrapper that compresses JSON answers over 1 kB (a page of a list), for a client that accepts
 * an encoding: it costs CPU per answer, so a request that accepts none never meets it, and event
 * streams pass as sent (docs/decisions/026-compress-what-the-gateway-renders.md, 038-server-side-paging.md).
 */
export function proxiedCompression(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const compress = compression({
    threshold: PROXIED_COMPRESSION_THRESHOLD,
    filter: (_req, res) => /^application\/json\b/.test(String(res.getHeader("content-type") ?? "")),
  });
  return (req, res, next) => {
    if (acceptsEncoding(req) && !isEventStream(pathOf(req.url)))
      return compress(req as Request, res as Response, next);
    next();
  };
}

/** One call toward the backend. */
interface UpstreamCall {
  /** The call's id, and its logger, made only when something is logged. */
  request: RequestLog;
  /** The client's address, for X-Forwarded-For. */
  ip: string;
  /** An /api call's session, whose token goes as the bearer. */
  session: Session | null;
  body: Buffer | undefined;
}

/** Reads the body (decompressed, within the limit) as bytes; undefined when there is none. */
function bodyReader(config: GatewayConfig) {
  // Decompresses gzip, deflate and br bodies; the limit applies to the decompressed size.
  const parse = express.raw({ type: () => true, limit: config.bodyLimitBytes });
  return (req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> =>
    new Promise((resolve, reject) =>
      parse(req as Request, res as Response, (error?: unknown) => {
        if (error) return reject(error);
        const body = (req as { body?: unknown }).body;
        resolve(Buffer.isBuffer(body) ? body : undefined);
      }),
    );
}

/** Whatever is wrong with a request body is the client's fault: a 4xx, never a 5xx. */
function answerBodyError(res: ServerResponse, log: Logger, path: string, error: unknown) {
  const { type, status, message } = error as { type?: string; status?: number; message?: string };
  if (type === "entity.too.large") return sendError(res, 413, GATEWAY_ERRORS.tooLarge);
  if (type === "encoding.unsupported") return sendError(res, 415, GATEWAY_ERRORS.unsupportedEncoding);
  if (status !== undefined && status >= 400 && status < 500)
    return sendError(res, 400, GATEWAY_ERRORS.malformedBody);
  log.error({ err: { message }, path }, "proxy failed");
  sendError(res, 500, GATEWAY_ERRORS.internal);
}

export interface ProxyDeps {
  verify: TokenVerifier;
  cookie: SessionCookie;
  status: SessionStatusChecker;
  resolveSession: SessionResolver;
  /** The security headers every proxied answer gets (security.ts). */
  headers: FixedHeaders;
  logger: Logger;
  authRateLimit: AuthRateLimit;
  authRoutes: AuthRoutes;
}

export function backendProxy(config: GatewayConfig, deps: ProxyDeps) {
  const target = new URL(config.backendUrl);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const publicOrigin = new URL(config.publicOrigin);
  const forwardedProto = publicOrigin.protocol.replace(/:$/, "");
  const hops = config.trustProxyHops;
  // Event streams hold their socket as long as their page stays open: they have a pool of their
  // own, so that however many are open, other calls still get a socket.
  const calls = upstreamPool(config.backendUrl, config.proxySockets.calls, config.proxySocketWaitMs);
  const streams = upstreamPool(config.backendUrl, config.proxySockets.streams, config.proxySocketWaitMs);
  const streamsOfSession = slotLimit(config.eventStreamsPerSession);
  const readBody = bodyReader(config);

  function upstreamHeaders(req: IncomingMessage, call: UpstreamCall, webhook: boolean): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = { host: target.host };
    const copy = (name: string) => {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = value;
    };
    FORWARDED_HEADERS.forEach(copy);
    if (webhook) WEBHOOK_HEADERS.forEach(copy);
    if (call.session) headers.authorization = `Bearer ${call.session.token}`;
    headers["x-request-id"] = call.request.id;
    headers["x-forwarded-for"] = call.ip;
    headers["x-forwarded-proto"] = forwardedProto;
    headers["x-forwarded-host"] = publicOrigin.host;
    // Answers pass through plain: the /auth ones are read here, large JSON is compressed here.
    headers["accept-encoding"] = "identity";
    if (call.body) headers["content-length"] = call.body.length;
    return headers;
  }

  /**
   * Sends the call once its pool has a socket for it (504 after PROXY_SOCKET_WAIT_MS without one),
   * and hands the answer to `answer`. No answer in PROXY_TIMEOUT_MS: 504; the backend unreachable:
   * 502. A browser that gives up cancels the upstream call too.
   */
  function forward(
    pool: UpstreamPool,
    poolName: string,
    req: IncomingMessage,
    res: ServerResponse,
    call: UpstreamCall,
    answer: (upstream: IncomingMessage) => void,
  ): void {
    pool.admit(
      res,
      () => {
        let timedOut = false;
        let upstream: ClientRequest;
        const sendUpstream = (retried: boolean) => {
          upstream = send({
            agent: pool.agent,
            protocol: target.protocol,
            hostname: target.hostname.replace(/^\[|\]$/g, ""),
            port: target.port,
            method: req.method,
            path: req.url,
            headers: upstreamHeaders(req, call, isWebhook(pathOf(req.url))),
          });
          upstream.setTimeout(config.proxyTimeoutMs, () => {
            timedOut = true;
            upstream.destroy(new Error("upstream timeout"));
          });
          upstream.on("response", (answered) => {
            answered.on("error", () => res.destroy());
            answer(answered);
          });
          upstream.on("error", (error: NodeJS.ErrnoException) => {
            if (res.destroyed) return;
            if (!retried && lostToStaleSocket(upstream, error)) return sendUpstream(true);
            call.request.log.warn({ err: { message: error.message, code: error.code } }, "upstream failed");
            if (timedOut) sendError(res, 504, GATEWAY_ERRORS.upstreamTimeout);
            else sendError(res, 502, GATEWAY_ERRORS.upstreamUnavailable);
          });
          upstream.end(call.body);
        };
        res.on("close", () => {
          if (!res.writableFinished) upstream.destroy();
        });
        sendUpstream(false);
      },
      () => {
        call.request.log.warn({ pool: poolName }, "no socket to the backend in time");
        sendError(res, 504, GATEWAY_ERRORS.upstreamTimeout);
      },
    );
  }

  /**
   * The backend's answer as it comes, without its cookies. A 401 to a call that carried the
   * session means the backend no longer knows the session (logged out or revoked anywhere): the
   * cookie is cleared and this instance refuses the session from now on, as it would had it asked.
   */
  function passThrough(res: ServerResponse, call: UpstreamCall, secure: boolean) {
    return (upstream: IncomingMessage) => {
      const status = upstream.statusCode ?? 502;
      if (status === 401 && call.session) {
        deps.status.ended(call.session.claims);
        deps.cookie.clear(res, secure);
      }
      res.statusCode = status;
      for (const [name, value] of Object.entries(upstream.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
      upstream.pipe(res);
    };
  }

  const compressProxied = proxiedCompression();
  const logRequest = plainRequestLogger(deps.logger, { trustIncomingId: hops > 0 });

  /** An /api or /webhooks call, on the plain node:http request and response. */
  async function proxiedCall(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const request = logRequest(req, res);
    const { id } = request;
    setFixedHeaders(res, deps.headers);
    compressProxied(req, res, () => {});
    if (UNSAFE_PATH.test(path)) return sendError(res, 400, GATEWAY_ERRORS.invalidPath);
    const protocol = requestProtocol(req, hops);
    if (isCrossSiteWrite(config, req.method, req.headers, protocol))
      return sendError(res, 403, GATEWAY_ERRORS.crossSite);

    // Webhooks are public: a cookie that comes with one is not looked at. /auth asks the backend
    // whether the session is live, as pages do; /api leaves that to the backend's own check.
    const secure = protocol === "https";
    const facts = { id, secure };
    const token = isWebhook(path) ? undefined : sessionTokenOf(req);
    let session: Session | null = null;
    let undecided = false;
    if (token) {
      try {
        session = await deps.resolveSession(facts, res, token, { askBackend: isAuth(path) });
      } catch (error) {
        if (!(error instanceof KeysUnavailableError)) throw error;
        request.log.warn({ err: { message: error.message } }, "session keys unavailable; session kept");
        undecided = true;
      }
    }
    const ip = clientAddress(req, hops);
    if (isAuth(path)) {
      if (!(await deps.authRateLimit(req, res, ip))) return;
      const route = deps.authRoutes(req.method, path);
      if (route) return route(req, res, { facts, session, undecided, log: request.log });
    } else if (isApi(path) && !session && !PUBLIC_API_PATTERN.test(path)) {
      if (undecided) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
      return sendError(res, 401, GATEWAY_ERRORS.noAuthToken);
    }

    let body: Buffer | undefined;
    try {
      body = await readBody(req, res);
    } catch (error) {
      return answerBodyError(res, request.log, path, error);
    }
    // Only /api calls carry the session upstream.
    const call: UpstreamCall = { request, ip, session: isApi(path) ? session : null, body };
    if (isAuth(path))
      return forward(calls, "calls", req, res, call, authAnswer(req, res, call, secure, path));
    if (!isEventStream(path)) return forward(calls, "calls", req, res, call, passThrough(res, call, secure));

    // An event stream holds one of its session's slots until it closes; none left: 429. Every
    // event stream has a session: its path is not public.
    const release = session && streamsOfSession.take(session.claims.sid);
    if (!release) {
      res.setHeader("Retry-After", String(EVENT_STREAM_RETRY_AFTER_SECONDS));
      return sendError(res, 429, GATEWAY_ERRORS.tooManyStreams);
    }
    res.once("close", release);
    forward(streams, "streams", req, res, call, passThrough(res, call, secure));
  }

  /** The request listener's share: answers an /api or /webhooks call, never throws. */
  function proxiedCalls(req: IncomingMessage, res: ServerResponse, path: string): void {
    proxiedCall(req, res, path).catch((error: Error) => {
      deps.logger.error({ err: { message: error.message, stack: error.stack } }, "unhandled error");
      sendError(res, 500, GATEWAY_ERRORS.internal);
    });
  }

  /**
   * Every /auth answer passes here. A `token` never reaches the browser: on a successful sign-in it
   * becomes the cookie (after it verifies), anywhere else it is simply removed.
   */
  function authAnswer(
    req: IncomingMessage,
    res: ServerResponse,
    call: UpstreamCall,
    secure: boolean,
    path: string,
  ) {
    return async (upstream: IncomingMessage) => {
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of upstream) chunks.push(chunk as Buffer);
        const raw = Buffer.concat(chunks);
        const status = upstream.statusCode ?? 502;
        const body = parseJsonObject(raw);
        if (!body || !("token" in body)) {
          res.statusCode = status;
          res.setHeader("Content-Type", upstream.headers["content-type"] ?? "application/json");
          res.setHeader("Cache-Control", "no-store");
          res.setHeader("Content-Length", raw.length);
          res.end(raw);
          return;
        }
        const { token, ...rest } = body;
        const signsIn = status >= 200 && status < 300 && carriesToken(req.method, path);
        if (signsIn) {
          const claims = typeof token === "string" ? await deps.verify(token) : null;
          if (!claims || typeof token !== "string") {
            call.request.log.error("backend returned a session token that does not verify");
            sendError(res, 502, GATEWAY_ERRORS.upstreamInvalidSession);
            return;
          }
          deps.cookie.set(res, token, secure);
        }
        sendJson(res, status, rest);
      } catch (error) {
        if (error instanceof KeysUnavailableError) {
          sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
          return;
        }
        call.request.log.error({ err: { message: (error as Error).message } }, "auth answer failed");
        sendError(res, 502, GATEWAY_ERRORS.upstreamUnavailable);
      }
    };
  }

  return proxiedCalls;
}

function parseJsonObject(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
