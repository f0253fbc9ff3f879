/**
 * Per-address limit on the /auth calls, which guard passwords and sign-in codes, counted by the
 * backend so that it holds across every gateway (shared-rate-limit-store.ts). Runs on the proxied
 * path's plain request and response (proxy.ts), with the client address read as Express would.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { rateLimit } from "express-rate-limit";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { BackendRateLimitStore } from "./shared-rate-limit-store.ts";

/** Counts the call; answers true when it may go on, false once the 429 is sent. */
export type AuthRateLimit = (
  req: IncomingMessage,
  res: ServerResponse,
  clientAddress: string,
) => Promise<boolean>;

export function authRateLimit(config: GatewayConfig): AuthRateLimit {
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: config.authRateLimitPerMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: new BackendRateLimitStore(config.backendUrl),
    handler: (_req, res) => sendError(res, 429, GATEWAY_ERRORS.rateLimited),
    // Its checks of Express's settings do not apply: the address is given (`ip` below).
    validate: false,
  });
  return async (req, res, clientAddress) => {
    // The default key (the address, IPv6 by its /56), as when this ran in Express.
    (req as IncomingMessage & { ip?: string }).ip = clientAddress;
    // The one Express method it calls besides Node's (for the draft-8 headers).
    const appendable = Object.assign(res, {
      append: (name: string, value: string) => res.appendHeader(name, value),
    });
    let passed = false;
    await limiter(req as never, appendable as never, (error?: unknown) => {
      if (error) throw error;
      passed = true;
    });
    return passed;
  };
}
