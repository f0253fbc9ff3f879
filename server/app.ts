/**
 * createApp builds the gateway without listening, so tests drive it with supertest. `app` is the
 * node:http request listener: /api, /auth and /webhooks go straight to the proxy's own lean path
 * (docs/decisions/044-lean-proxied-path.md); everything else goes through Express, whose middleware
 * order follows React Router's node-custom-server template: compression, security headers, logging,
 * health, static files (before any session work), the session, the CSRF check, then the streamed
 * pages. docs/architecture.md walks through both.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants as zlib } from "node:zlib";
import compression from "compression";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { Logger } from "pino";
import { createLogger, requestLogger } from "../shared/node/logging.ts";
import { gatewayAuthRoutes } from "./auth-routes.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { healthRoutes, type Readiness } from "./health.ts";
import { type PageModuleSource, pageHandler, productionPages, staticAssets } from "./pages.ts";
import { backendProxy, isProxiedPath, plainProxiedPath } from "./proxy.ts";
import { authRateLimit } from "./rate-limit.ts";
import { rejectCrossSiteWrites, securityHeaders } from "./security.ts";
import { createRefresher, sessionCookie, sessionMiddleware, sessionResolver } from "./session.ts";
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

export function createApp(config: GatewayConfig, deps: AppDependencies = {}) {
  const logger = deps.logger ?? createLogger({ name: "gateway", level: config.logLevel });
  const readiness = deps.readiness ?? { shuttingDown: false };
  const verify = deps.verifyToken ?? createTokenVerifier(config);
  const status = createSessionStatusChecker(config);
  const cookie = sessionCookie(config);
  const session = { verify, status, cookie, refresh: createRefresher(config) };
  const resolveSession = sessionResolver(session);
  const security = securityHeaders(config);
  const proxy = backendProxy(config, {
    verify,
    cookie,
    status,
    resolveSession,
    headers: security.proxied,
    logger,
    authRateLimit: authRateLimit(config),
    authRoutes: gatewayAuthRoutes(config, session),
  });

  const app = express();
  app.disable("x-powered-by");
  // A hop count, never `true`: only that many proxies in front of us may set X-Forwarded-*.
  app.set("trust proxy", config.trustProxyHops);

  // Sync flush so that streamed HTML reaches the browser chunk by chunk, not when a buffer fills.
  // What the gateway produces is compressed: pages, loader data, assets.
  app.use(compression({ flush: zlib.Z_SYNC_FLUSH }));
  app.use(security.middleware);
  app.use(requestLogger(logger, { trustIncomingId: config.trustProxyHops > 0 }));
  app.use(healthRoutes(readiness));
  app.use(deps.assets ?? staticAssets(config));

  app.use(sessionMiddleware(resolveSession, { status, cookie }));
  app.use(rejectCrossSiteWrites(config));
  // Only an absolute-form request target (`GET http://host/api/x`) brings a proxied path here.
  app.use((req, res, next) => {
    if (isProxiedPath(req.path)) return sendError(res, 400, GATEWAY_ERRORS.invalidPath);
    next();
  });

  app.use(pageHandler(config, deps.pages ?? productionPages(config)));

  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    if (isClientAbort(req, error)) {
      req.log?.debug({ reason: error.message }, "client closed the connection");
      return;
    }
    req.log?.error({ err: { message: error.message, stack: error.stack } }, "unhandled error");
    sendError(res, 500, GATEWAY_ERRORS.internal);
  });

  /** /api, /auth and /webhooks skip Express altogether; the rest goes through it. */
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const proxiedPath = plainProxiedPath(req.url);
    if (proxiedPath) proxy(req, res, proxiedPath);
    else app(req, res);
  };

  return { app: listener, logger, readiness };
}
