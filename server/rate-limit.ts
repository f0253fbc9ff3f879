/** Per-address limit on the /auth calls, which guard passwords and sign-in codes. */
import { rateLimit } from "express-rate-limit";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";

export function authRateLimit(config: GatewayConfig) {
  return rateLimit({
    windowMs: 60_000,
    limit: config.authRateLimitPerMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, res) => sendError(res, 429, GATEWAY_ERRORS.rateLimited),
  });
}
