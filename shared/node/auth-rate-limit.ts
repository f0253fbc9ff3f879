/**
 * What a gateway sends the backend to count a hit on its /auth rate limit, and what it gets back
 * (`API_PATHS.authRateLimitHit`; docs/decisions/042-scale-out.md).
 */
import * as v from "valibot";

export const authRateLimitHitSchema = v.object({
  /** The client's key as the gateway makes it (its address). */
  key: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  windowMs: v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(3_600_000)),
});

export const authRateLimitCountSchema = v.object({
  /** Hits of this key in the current window, this one included, across every gateway. */
  hits: v.pipe(v.number(), v.integer(), v.gtValue(0)),
  /** When the window ends, in milliseconds since the epoch. */
  resetAt: v.pipe(v.number(), v.integer()),
});

export type AuthRateLimitHit = v.InferOutput<typeof authRateLimitHitSchema>;
export type AuthRateLimitCount = v.InferOutput<typeof authRateLimitCountSchema>;
