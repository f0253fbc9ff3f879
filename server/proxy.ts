/**
 * The proxy of /api and /auth to the backend (docs/security.md lists what it guarantees). It is
 * mounted before any body parser: the request body is read here as raw bytes, decompressed within
 * the size limit, and written upstream plain.
 *
 * Toward the backend only an allow-list of request headers passes; the bearer comes from the
 * verified cookie, the forwarded host and protocol from the configured public origin. Back from the
 * backend, Set-Cookie is dropped (only the gateway sets cookies), and no /auth answer keeps a
 * `token`: sign-in answers that carry one become the cookie instead.
 *
 * Event streams go over sockets of their own, capped per session; every request waits a bounded
 * time for its socket (docs/decisions/032-event-stream-limits.md).
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from "express";
import { createProxyMiddleware, type Options, proxyEventsPlugin } from "http-proxy-middleware";
import { EVENT_STREAM_RETRY_AFTER_SECONDS } from "../shared/constants.ts";
import {
  EVENT_STREAM_PATHS,
  PUBLIC_API_PATTERN,
  TOKEN_BEARING_AUTH_PATHS,
} from "../shared/contract/common.ts";
import { pathOf } from "../shared/node/logging.ts";
import { slotLimit } from "../shared/node/slot-limit.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { type SessionCookie, sessionOf, sessionUndecided } from "./session.ts";
import { KeysUnavailableError, type TokenVerifier } from "./session-token.ts";
import { type UpstreamPool, upstreamPool } from "./upstream-pool.ts";

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");
const isAuth = (path: string) => path === "/auth" || path.startsWith("/auth/");
/** Code hosts' webhooks: public, authenticated by their signature, which the backend checks. */
const isWebhook = (path: string) => path.startsWith("/webhooks/");

/** The paths this proxy answers: their bodies come from the backend. */
export const isProxiedPath = (path: string) => isApi(path) || isAuth(path) || isWebhook(path);

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
const carriesToken = (req: Request) =>
  req.method === "POST" && TOKEN_BEARING_AUTH_PATHS.some((pattern) => pattern.test(canonicalPath(req.path)));

/**
 * Dot segments, encoded dots, encoded slashes and backslashes: a backend that normalises paths
 * could turn `/api/../x` into another route, and it would arrive with the bearer token.
 */
const UNSAFE_PATH = /(^|\/)\.\.?(\/|$)|%2e|%2f|%5c|\\/i;

/** Request headers the backend may see; everything else from the browser stays here. */
const FORWARDED_HEADERS = new Set([
  "host",
  "accept",
  "accept-language",
  "content-type",
  "user-agent",
  "if-none-match",
  "if-modified-since",
]);
/**
 * What a webhook needs besides: GitHub's event, delivery id and signature, Stripe's signature,
 * and the Basic auth that Azure DevOps service hooks prove themselves with (the gateway never
 * makes one from a session here).
 */
const WEBHOOK_HEADERS = new Set([
  "x-github-event",
  "x-github-delivery",
  "x-hub-signature-256",
  "stripe-signature",
  "authorization",
]);

function prepareUpstreamRequest(config: GatewayConfig) {
  const publicOrigin = new URL(config.publicOrigin);
  const forwardedProto = publicOrigin.protocol.replace(/:$/, "");

  return (proxyReq: ClientRequest, rawReq: IncomingMessage, rawRes: ServerResponse) => {
    const req = rawReq as Request;
    const res = rawRes as Response;
    const webhook = isWebhook(req.path);
    for (const name of proxyReq.getHeaderNames()) {
      if (!FORWARDED_HEADERS.has(name) && !(webhook && WEBHOOK_HEADERS.has(name)))
        proxyReq.removeHeader(name);
    }
    const session = sessionOf(res);
    if (session && isApi(req.path)) proxyReq.setHeader("authorization", `Bearer ${session.token}`);
    proxyReq.setHeader("x-request-id", String(req.id));
    proxyReq.setHeader("x-forwarded-for", req.ip ?? "");
    proxyReq.setHeader("x-forwarded-proto", forwardedProto);
    proxyReq.setHeader("x-forwarded-host", publicOrigin.host);
    // Answers pass through plain: the /auth ones are read here, and none is compressed (app.ts).
    proxyReq.setHeader("accept-encoding", "identity");

    // The body was read (and decompressed) by the raw parser; it goes upstream plain, with its length.
    if (Buffer.isBuffer(req.body)) {
      proxyReq.setHeader("content-length", req.body.length);
      if (req.body.length > 0) proxyReq.write(req.body);
    }

    proxyReq.setTimeout(config.proxyTimeoutMs, () => {
      res.locals.upstreamTimedOut = true;
      proxyReq.destroy(new Error("upstream timeout"));
    });
    // A browser that gives up cancels the upstream call too.
    res.on("close", () => {
      if (!res.writableFinished) proxyReq.destroy();
    });
  };
}

function onProxyError(error: Error, rawReq: IncomingMessage, rawRes: ServerResponse | unknown) {
  const req = rawReq as Request;
  const res = rawRes as Response;
  if (typeof res.status !== "function" || res.destroyed) return;
  req.log?.warn(
    { err: { message: error.message, code: (error as NodeJS.ErrnoException).code } },
    "upstream failed",
  );
  if (res.locals.upstreamTimedOut === true) sendError(res, 504, GATEWAY_ERRORS.upstreamTimeout);
  else sendError(res, 502, GATEWAY_ERRORS.upstreamUnavailable);
}

function dropUpstreamCookies(proxyRes: IncomingMessage) {
  delete proxyRes.headers["set-cookie"];
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
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

/**
 * Every /auth answer passes here. A `token` never reaches the browser: on a successful sign-in it
 * becomes the cookie (after it verifies), anywhere else it is simply removed.
 */
function handleAuthAnswer(verify: TokenVerifier, cookie: SessionCookie) {
  return async (proxyRes: IncomingMessage, rawReq: IncomingMessage, rawRes: ServerResponse) => {
    const req = rawReq as Request;
    const res = rawRes as Response;
    try {
      const raw = await readBody(proxyRes);
      const status = proxyRes.statusCode ?? 502;
      const body = parseJsonObject(raw);
      if (!body || !("token" in body)) {
        res
          .status(status)
          .type(proxyRes.headers["content-type"] ?? "application/json")
          .set("Cache-Control", "no-store")
          .send(raw);
        return;
      }
      const { token, ...rest } = body;
      const signsIn = status >= 200 && status < 300 && carriesToken(req);
      if (signsIn) {
        const claims = typeof token === "string" ? await verify(token) : null;
        if (!claims || typeof token !== "string") {
          req.log?.error("backend returned a session token that does not verify");
          sendError(res, 502, GATEWAY_ERRORS.upstreamInvalidSession);
          return;
        }
        cookie.set(req, res, token);
      }
      res.status(status).set("Cache-Control", "no-store").json(rest);
    } catch (error) {
      if (error instanceof KeysUnavailableError) {
        sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
        return;
      }
      req.log?.error({ err: { message: (error as Error).message } }, "auth answer failed");
      sendError(res, 502, GATEWAY_ERRORS.upstreamUnavailable);
    }
  };
}

export function backendProxy(
  config: GatewayConfig,
  deps: { verify: TokenVerifier; cookie: SessionCookie },
): Router {
  // Event streams hold their socket as long as their page stays open: they have a pool of their
  // own, so that however many are open, other calls still get a socket.
  const calls = upstreamPool(config.backendUrl, config.proxySockets.calls, config.proxySocketWaitMs);
  const streams = upstreamPool(config.backendUrl, config.proxySockets.streams, config.proxySocketWaitMs);
  const streamsOfSession = slotLimit(config.eventStreamsPerSession);
  const common = (pool: UpstreamPool): Options => ({
    target: config.backendUrl,
    agent: pool.agent,
    changeOrigin: true,
    xfwd: false,
    // Our own handlers replace the defaults, which log to the console and answer in plain text.
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
  });
  const prepare = prepareUpstreamRequest(config);
  const passThrough = { proxyReq: prepare, proxyRes: dropUpstreamCookies, error: onProxyError };
  const api = createProxyMiddleware({ ...common(calls), on: passThrough });
  const apiStream = createProxyMiddleware({ ...common(streams), on: passThrough });
  const auth = createProxyMiddleware({
    ...common(calls),
    selfHandleResponse: true,
    on: { proxyReq: prepare, proxyRes: handleAuthAnswer(deps.verify, deps.cookie), error: onProxyError },
  });

  /** Sends the request upstream once its pool has a socket for it: 504 after PROXY_SOCKET_WAIT_MS without one. */
  const proxyThrough =
    (pool: UpstreamPool, poolName: string, proxy: RequestHandler) =>
    (req: Request, res: Response, next: NextFunction) =>
      pool.admit(
        res,
        () => proxy(req, res, next),
        () => {
          req.log?.warn({ pool: poolName }, "no socket to the backend in time");
          sendError(res, 504, GATEWAY_ERRORS.upstreamTimeout);
        },
      );
  const sendCall = proxyThrough(calls, "calls", api);
  const sendAuth = proxyThrough(calls, "calls", auth);
  const sendStream = proxyThrough(streams, "streams", apiStream);

  /** An event stream holds one of its session's slots until it closes; none left: 429. */
  function openStream(req: Request, res: Response, next: NextFunction) {
    // Every event stream has a session: its path is not public.
    const session = sessionOf(res);
    const release = session && streamsOfSession.take(session.claims.sid);
    if (!release) {
      res.set("Retry-After", String(EVENT_STREAM_RETRY_AFTER_SECONDS));
      return sendError(res, 429, GATEWAY_ERRORS.tooManyStreams);
    }
    res.once("close", release);
    sendStream(req, res, next);
  }

  const router = Router();
  // Decompresses gzip, deflate and br bodies; the limit applies to the decompressed size.
  const readBodyWithinLimit = express.raw({ type: () => true, limit: config.bodyLimitBytes });

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (!isProxiedPath(req.path)) return next("router");
    if (UNSAFE_PATH.test(pathOf(req.originalUrl))) return sendError(res, 400, GATEWAY_ERRORS.invalidPath);
    if (isApi(req.path) && !sessionOf(res) && !PUBLIC_API_PATTERN.test(req.path)) {
      if (sessionUndecided(res)) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
      return sendError(res, 401, GATEWAY_ERRORS.noAuthToken);
    }
    next();
  });
  router.use(readBodyWithinLimit);
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (isEventStream(req.path)) return openStream(req, res, next);
    return (isAuth(req.path) ? sendAuth : sendCall)(req, res, next);
  });
  // Whatever is wrong with a request body is the client's fault: a 4xx, never a 5xx.
  router.use(
    (error: Error & { type?: string; status?: number }, req: Request, res: Response, next: NextFunction) => {
      if (error.type === "entity.too.large") return sendError(res, 413, GATEWAY_ERRORS.tooLarge);
      if (error.type === "encoding.unsupported")
        return sendError(res, 415, GATEWAY_ERRORS.unsupportedEncoding);
      if (error.status !== undefined && error.status >= 400 && error.status < 500) {
        return sendError(res, 400, GATEWAY_ERRORS.malformedBody);
      }
      req.log?.error({ err: { message: error.message }, path: pathOf(req.originalUrl) }, "proxy failed");
      next(error);
    },
  );
  return router;
}
