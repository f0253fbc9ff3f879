/**
 * A rate-limit store whose counts are kept by the backend, in its database, so that every gateway
 * in front of one database counts the same hits (docs/decisions/042-scale-out.md). A backend that
 * cannot answer in time is no reason to refuse a sign-in nor to drop the limit: this gateway then
 * counts in its own memory until the backend answers again.
 */

import { type ClientRateLimitInfo, MemoryStore, type Options, type Store } from "express-rate-limit";
import * as v from "valibot";
import { API_PATHS } from "../shared/contract/common.ts";
import { authRateLimitCountSchema } from "../shared/node/auth-rate-limit.ts";

const COUNT_TIMEOUT_MS = 1000;

export class BackendRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix = "auth:";
  private readonly fallback = new MemoryStore();
  private windowMs = 60_000;
  private readonly backendUrl: string;

  constructor(backendUrl: string) {
    this.backendUrl = backendUrl;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    this.fallback.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      const response = await fetch(`${this.backendUrl}${API_PATHS.authRateLimitHit}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: this.prefix + key, windowMs: this.windowMs }),
        signal: AbortSignal.timeout(COUNT_TIMEOUT_MS),
      });
      const count = v.safeParse(authRateLimitCountSchema, response.ok ? await response.json() : undefined);
      if (count.success) return { totalHits: count.output.hits, resetTime: new Date(count.output.resetAt) };
    } catch {
      // Counted below, in memory.
    }
    return this.fallback.increment(key);
  }

  // Only `skip*Requests` options call these, and the /auth limit uses none: a hit once counted stays.
  decrement(key: string): void {
    this.fallback.decrement(key);
  }

  resetKey(key: string): void {
    this.fallback.resetKey(key);
  }

  shutdown(): void {
    this.fallback.shutdown();
  }
}
