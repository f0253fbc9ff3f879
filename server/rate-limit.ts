/**
 * Per-address limit on the /auth calls, which guard passwords and sign-in codes, counted by the
 * backend so that it holds across every gateway (shared-rate-limit-store.ts).
 */
import { rateLimit } from "express-rate-limit";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { BackendRateLimitStore } from "./shared-rate-limit-store.ts";

export function authRateLimit(config: GatewayConfig) {
  return rateLimit({
    windowMs: 60_000,
    limit: config.authRateLimitPerMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: new BackendRateLimitStore(config.backendUrl),
    handler: (_req, res) => sendError(res, 429, GATEWAY_ERRORS.rateLimited),
  });
}
