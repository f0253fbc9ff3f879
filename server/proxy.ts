/**
 * The proxy of /api and /auth to the backend. It is mounted before any body parser: the request body
 * is read here as raw bytes (to enforce the size limit before the backend sees anything) and written
 * upstream unchanged.
 *
 * Toward the backend the browser's cookie, any client Authorization and client X-Forwarded-* are
 * dropped; the bearer comes from the verified cookie. Back from the backend, Set-Cookie is dropped:
 * only the gateway sets cookies. Sign-in answers carrying a token become the cookie instead.
 */
import { type ClientRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import express, { type NextFunction, type Request, type Response, Router } from "express";
import { createProxyMiddleware, type Options, proxyEventsPlugin } from "http-proxy-middleware";
import { PUBLIC_API_PATTERN, TOKEN_BEARING_AUTH_PATHS } from "../shared/contract.ts";
import { pathOf } from "../shared/logging.ts";
import { ERRORS } from "../shared/messages.ts";
import type { GatewayConfig } from "./config.ts";
import { sendError } from "./errors.ts";
import { sessionOf, setSessionCookie, type TokenVerifier } from "./session.ts";

type ProxiedRequest = Request & { body?: unknown };

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");
const isAuth = (path: string) => path === "/auth" || path.startsWith("/auth/");
const carriesToken = (req: Request) =>
  req.method === "POST" && TOKEN_BEARING_AUTH_PATHS.some((pattern) => pattern.test(req.path));

export const UPSTREAM_ERRORS = {
  unavailable: { error: "Bad gateway", code: "UPSTREAM_UNAVAILABLE", message: ERRORS.backendUnavailable },
  timeout: { error: "Gateway timeout", code: "UPSTREAM_TIMEOUT", message: ERRORS.backendUnavailable },
  invalidSession: {
    error: "Bad gateway",
    code: "UPSTREAM_INVALID_SESSION",
    message: ERRORS.backendAuthFailed,
  },
  tooLarge: { error: "Payload too large", code: "PAYLOAD_TOO_LARGE" },
} as const;

function prepareUpstreamRequest(config: GatewayConfig) {
  return (proxyReq: ClientRequest, rawReq: IncomingMessage, rawRes: ServerResponse) => {
    const req = rawReq as ProxiedRequest;
    const res = rawRes as Response;
    for (const name of proxyReq.getHeaderNames()) {
      if (name.startsWith("x-forwarded-")) proxyReq.removeHeader(name);
    }
    proxyReq.removeHeader("cookie");
    proxyReq.removeHeader("authorization");
    const session = sessionOf(res);
    if (session && isApi(req.path)) proxyReq.setHeader("authorization", `Bearer ${session.token}`);
    proxyReq.setHeader("x-request-id", String(req.id));
    proxyReq.setHeader("x-forwarded-for", req.ip ?? "");
    proxyReq.setHeader("x-forwarded-proto", req.protocol);
    proxyReq.setHeader("x-forwarded-host", req.get("host") ?? "");
    // The gateway compresses for the browser; upstream answers stay plain so they can be inspected.
    proxyReq.setHeader("accept-encoding", "identity");

    if (Buffer.isBuffer(req.body) && req.body.length > 0) {
      proxyReq.removeHeader("transfer-encoding");
      proxyReq.setHeader("content-length", req.body.length);
      proxyReq.write(req.body);
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
  const timedOut = res.locals.upstreamTimedOut === true;
  req.log?.warn(
    { err: { message: error.message, code: (error as NodeJS.ErrnoException).code } },
    "upstream failed",
  );
  if (timedOut) sendError(res, 504, UPSTREAM_ERRORS.timeout);
  else sendError(res, 502, UPSTREAM_ERRORS.unavailable);
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

/** Turns a sign-in answer's token into the cookie and removes it from what the browser gets. */
function handleSignInAnswer(verify: TokenVerifier) {
  return async (proxyRes: IncomingMessage, rawReq: IncomingMessage, rawRes: ServerResponse) => {
    const req = rawReq as Request;
    const res = rawRes as Response;
    try {
      const raw = await readBody(proxyRes);
      const status = proxyRes.statusCode ?? 502;
      const contentType = proxyRes.headers["content-type"] ?? "application/json";
      let body: unknown;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = undefined;
      }
      const hasToken =
        status >= 200 && status < 300 && typeof body === "object" && body !== null && "token" in body;
      if (!hasToken) {
        res.status(status).type(contentType).set("Cache-Control", "no-store").send(raw);
        return;
      }
      const { token, ...rest } = body as { token: unknown };
      const claims = typeof token === "string" ? await verify(token) : null;
      if (!claims || typeof token !== "string") {
        req.log?.error("backend returned a session token that does not verify");
        sendError(res, 502, UPSTREAM_ERRORS.invalidSession);
        return;
      }
      setSessionCookie(req, res, token);
      res.status(status).json(rest);
    } catch (error) {
      req.log?.error({ err: { message: (error as Error).message } }, "sign-in answer failed");
      sendError(res, 502, UPSTREAM_ERRORS.unavailable);
    }
  };
}

export function backendProxy(config: GatewayConfig, verify: TokenVerifier): Router {
  // The proxy opens a new connection per request unless given an agent; reuse them instead.
  const agentOptions = { keepAlive: true, maxSockets: 256 };
  const agent = config.backendUrl.startsWith("https:")
    ? new HttpsAgent(agentOptions)
    : new HttpAgent(agentOptions);
  const common: Options = {
    target: config.backendUrl,
    agent,
    changeOrigin: true,
    xfwd: false,
    // Our own handlers replace the defaults, which log to the console and answer in plain text.
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
  };
  const prepare = prepareUpstreamRequest(config);
  const plain = createProxyMiddleware({
    ...common,
    on: { proxyReq: prepare, proxyRes: dropUpstreamCookies, error: onProxyError },
  });
  const signIn = createProxyMiddleware({
    ...common,
    selfHandleResponse: true,
    on: { proxyReq: prepare, proxyRes: handleSignInAnswer(verify), error: onProxyError },
  });

  const router = Router();
  const readBodyWithinLimit = express.raw({ type: () => true, limit: config.bodyLimitBytes });

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (!isApi(req.path) && !isAuth(req.path)) return next("router");
    if (isApi(req.path) && !sessionOf(res) && !PUBLIC_API_PATTERN.test(req.path)) {
      return sendError(res, 401, { error: ERRORS.noAuthToken });
    }
    next();
  });
  router.use(readBodyWithinLimit);
  router.use((req: Request, res: Response, next: NextFunction) =>
    (carriesToken(req) ? signIn : plain)(req, res, next),
  );
  router.use(
    (error: Error & { type?: string; status?: number }, req: Request, res: Response, next: NextFunction) => {
      if (error.type === "entity.too.large") return sendError(res, 413, UPSTREAM_ERRORS.tooLarge);
      if (error.status === 400) return sendError(res, 400, { error: "Malformed request body" });
      req.log?.error({ err: { message: error.message }, path: pathOf(req.originalUrl) }, "proxy failed");
      next(error);
    },
  );
  return router;
}
