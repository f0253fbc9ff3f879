/**
 * createApp builds the gateway without listening, so tests drive it with supertest. The middleware
 * order follows React Router's node-custom-server template: compression (of all but proxied
 * answers), security headers, logging, health, static files (before any session work), the
 * session, the proxy (before any body parser), then the streamed pages. docs/architecture.md walks
 * through it.
 */
import { constants as zlib } from "node:zlib";
import compression from "compression";
import cookieParser from "cookie-parser";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { Logger } from "pino";
import { EVENT_STREAM_PATHS } from "../shared/contract/common.ts";
import { createLogger, requestLogger } from "../shared/node/logging.ts";
import { gatewayAuthRoutes } from "./auth-routes.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { healthRoutes, type Readiness } from "./health.ts";
import { type PageModuleSource, pageHandler, productionPages, staticAssets } from "./pages.ts";
import { backendProxy, isProxiedPath } from "./proxy.ts";
import { authRateLimit } from "./rate-limit.ts";
import { rejectCrossSiteWrites, securityHeaders } from "./security.ts";
import { createRefresher, sessionCookie, sessionMiddleware } from "./session.ts";
import { createSessionStatusChecker } from "./session-status.ts";
import { createTokenVerifier, type TokenVerifier } from "./session-token.ts";

export interface AppDependencies {
  logger?: Logger;
  readiness?: Readiness;
  /** The app's page handler; defaults to the production build in config.buildDir. */
  pages?: PageModuleSource;
  /** Serves client files instead of the production build (Vite's dev middleware). */
  assets?: RequestHandler;
  verifyToken?: TokenVerifier;
}

/** A browser that leaves mid-response is routine, not an error worth a stack trace. */
function isClientAbort(req: Request, error: Error & { code?: string }): boolean {
  return req.destroyed || error.code === "ERR_STREAM_PREMATURE_CLOSE" || error.code === "ECONNRESET";
}

/** Proxied answers at least this large are compressed, for a client that accepts it. */
const PROXIED_COMPRESSION_THRESHOLD = 1024;

function acceptsEncoding(req: Request): boolean {
  return /\b(?:gzip|br|deflate)\b/.test(req.headers["accept-encoding"] ?? "");
}

function isJsonAnswer(_req: Request, res: Response): boolean {
  return /^application\/json\b/.test(String(res.getHeader("content-type") ?? ""));
}

export function createApp(config: GatewayConfig, deps: AppDependencies = {}) {
  const logger = deps.logger ?? createLogger({ name: "gateway", level: config.logLevel });
  const readiness = deps.readiness ?? { shuttingDown: false };
  const verify = deps.verifyToken ?? createTokenVerifier(config);
  const status = createSessionStatusChecker(config);
  const cookie = sessionCookie(config);
  const session = { verify, status, cookie, refresh: createRefresher(config) };

  const app = express();
  app.disable("x-powered-by");
  // A hop count, never `true`: only that many proxies in front of us may set X-Forwarded-*.
  app.set("trust proxy", config.trustProxyHops);

  // Sync flush so that streamed HTML reaches the browser chunk by chunk, not when a buffer fills.
  // What the gateway produces is compressed (pages, loader data, assets). Proxied answers only when
  // they are JSON over 1 kB (a page of a list) and the client accepts an encoding: the wrapper costs
  // CPU per answer, so a request that accepts none never meets it, and event streams pass as sent
  // (docs/decisions/026-compress-what-the-gateway-renders.md, 038-server-side-paging.md).
  const compress = compression({ flush: zlib.Z_SYNC_FLUSH });
  const compressProxied = compression({ threshold: PROXIED_COMPRESSION_THRESHOLD, filter: isJsonAnswer });
  app.use((req, res, next) => {
    if (!isProxiedPath(req.path)) return compress(req, res, next);
    if (acceptsEncoding(req) && !EVENT_STREAM_PATHS.includes(req.path))
      return compressProxied(req, res, next);
    next();
  });
  app.use(securityHeaders(config));
  app.use(requestLogger(logger, { trustIncomingId: config.trustProxyHops > 0 }));
  app.use(healthRoutes(readiness));
  app.use(deps.assets ?? staticAssets(config));

  app.use(cookieParser());
  app.use(sessionMiddleware(session));
  app.use(rejectCrossSiteWrites(config));
  app.use("/auth", authRateLimit(config));
  app.use(gatewayAuthRoutes(config, session));
  app.use(backendProxy(config, { verify, cookie }));

  app.use(pageHandler(config, deps.pages ?? productionPages(config)));

  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    if (isClientAbort(req, error)) {
      req.log?.debug({ reason: error.message }, "client closed the connection");
      return;
    }
    req.log?.error({ err: { message: error.message, stack: error.stack } }, "unhandled error");
    sendError(res, 500, GATEWAY_ERRORS.internal);
  });

  return { app, logger, readiness };
}
