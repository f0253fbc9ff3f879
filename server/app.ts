/**
 * createApp builds the gateway without listening, so tests drive it with supertest.
 * Middleware order follows React Router's node-custom-server template: compression, security
 * headers, logging, health, the proxy (before any body parser), immutable assets, then SSR.
 */
import { constants as zlib } from "node:zlib";
import compression from "compression";
import cookieParser from "cookie-parser";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { Logger } from "pino";
import { createLogger, requestLogger } from "../shared/logging.ts";
import { gatewayAuthRoutes } from "./auth-routes.ts";
import type { GatewayConfig } from "./config.ts";
import { sendError } from "./errors.ts";
import { healthRoutes, type Readiness } from "./health.ts";
import { backendProxy } from "./proxy.ts";
import { authRateLimit } from "./rate-limit.ts";
import { rejectCrossSiteWrites, securityHeaders } from "./security.ts";
import { createTokenVerifier, sessionMiddleware, type TokenVerifier } from "./session.ts";
import { type BuildSource, productionBuild, ssrHandler, staticAssets } from "./ssr.ts";

export interface AppDependencies {
  logger?: Logger;
  readiness?: Readiness;
  /** The React Router build; defaults to the production build in config.buildDir. */
  build?: BuildSource;
  /** Serves client files instead of the production build (Vite's dev middleware). */
  assets?: RequestHandler;
  verifyToken?: TokenVerifier;
}

export function createApp(config: GatewayConfig, deps: AppDependencies = {}) {
  const logger = deps.logger ?? createLogger({ name: "gateway", level: config.logLevel });
  const readiness = deps.readiness ?? { shuttingDown: false };
  const verify = deps.verifyToken ?? createTokenVerifier(config);

  const app = express();
  app.disable("x-powered-by");
  // A hop count, never `true`: only that many proxies in front of us may set X-Forwarded-*.
  app.set("trust proxy", config.trustProxyHops);

  // Sync flush so that streamed HTML reaches the browser chunk by chunk, not when a buffer fills.
  app.use(compression({ flush: zlib.Z_SYNC_FLUSH }));
  app.use(securityHeaders(config));
  app.use(requestLogger(logger, { trustIncomingId: config.trustProxyHops > 0 }));
  app.use(healthRoutes(readiness));

  app.use(cookieParser());
  app.use(sessionMiddleware(config, verify));
  app.use(rejectCrossSiteWrites);
  app.use("/auth", authRateLimit(config));
  app.use(gatewayAuthRoutes(config));
  app.use(backendProxy(config, verify));

  app.use(deps.assets ?? staticAssets(config));
  app.use(ssrHandler(config, deps.build ?? productionBuild(config)));

  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    req.log?.error({ err: { message: error.message, stack: error.stack } }, "unhandled error");
    sendError(res, 500, { error: "Internal server error" });
  });

  return { app, logger, readiness };
}
