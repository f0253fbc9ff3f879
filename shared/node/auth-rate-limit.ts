/**
 * What a gateway sends the backend to count a hit on its /auth rate limit, and what it gets back
 * (`API_PATHS.authRateLimitHit`; docs/decisions/042-scale-out.md).
 */
import { z } from "zod";

export const authRateLimitHitSchema = z.object({
  /** The client's key as the gateway makes it (its address). */
  key: z.string().min(1).max(200),
  windowMs: z.number().int().min(1000).max(3_600_000),
});

export const authRateLimitCountSchema = z.object({
  /** Hits of this key in the current window, this one included, across every gateway. */
  hits: z.number().int().positive(),
  /** When the window ends, in milliseconds since the epoch. */
  resetAt: z.number().int(),
});

export type AuthRateLimitHit = z.infer<typeof authRateLimitHitSchema>;
export type AuthRateLimitCount = z.infer<typeof authRateLimitCountSchema>;
