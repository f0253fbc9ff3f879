/**
 * Session tokens whose signature has been checked, remembered for a short while (bounded, oldest out
 * first): an ES256 verification costs about as much as a database query, and the same token comes
 * back on every call of a session. Only the signature is remembered: callers run the time checks on
 * every use, and the backend still reads the session's row, so a revoked session ends at once.
 * Used by the gateway (server/session-token.ts) and the backend (backend/auth/session-tokens.ts).
 */
import { CLOCK_TOLERANCE_SECONDS, SESSION_ABSOLUTE_LIFETIME_SECONDS } from "../constants.ts";
import type { SessionClaims } from "../contract/accounts.ts";

export const VERIFIED_TOKEN_SECONDS = 60;
export const VERIFIED_TOKEN_ENTRIES = 10_000;

/** Not expired at `now`, with the clock tolerance: jose's `exp` check. */
export function notExpired(claims: SessionClaims, now: number): boolean {
  return claims.exp + CLOCK_TOLERANCE_SECONDS > now;
}

/** Not expired and within the session's absolute lifetime at `now`. */
export function claimsStillValid(claims: SessionClaims, now: number): boolean {
  return notExpired(claims, now) && now - claims.auth_time <= SESSION_ABSOLUTE_LIFETIME_SECONDS;
}

export interface VerifiedTokens {
  /** The claims of a token verified less than VERIFIED_TOKEN_SECONDS before `now`, else undefined. */
  recall(token: string, now: number): SessionClaims | undefined;
  remember(token: string, claims: SessionClaims, now: number): void;
}

export function verifiedTokens(
  seconds = VERIFIED_TOKEN_SECONDS,
  entries = VERIFIED_TOKEN_ENTRIES,
): VerifiedTokens {
  const verified = new Map<string, { claims: SessionClaims; checkedAt: number }>();
  return {
    recall(token, now) {
      const cached = verified.get(token);
      if (!cached) return undefined;
      // A clock set back (tests pass their own `now`) must not stretch the window either.
      if (now - cached.checkedAt >= seconds || now < cached.checkedAt) return undefined;
      return cached.claims;
    },
    remember(token, claims, now) {
      verified.delete(token);
      verified.set(token, { claims, checkedAt: now });
      if (verified.size > entries) verified.delete(verified.keys().next().value as string);
    },
  };
}
