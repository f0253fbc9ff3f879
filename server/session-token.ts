/**
 * Verifying the session JWT with jose. A token is a session only if its signature, algorithm,
 * issuer, audience and expiry check out and it is within the absolute lifetime; a token without
 * `exp` counts as expired. When the keys cannot be fetched, that is not a verdict on the token:
 * `KeysUnavailableError` is thrown so that callers keep the cookie and answer 503 instead of
 * signing everyone out (docs/security.md).
 */

import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from "jose";
import * as v from "valibot";
import { CLOCK_TOLERANCE_SECONDS } from "../shared/constants.ts";
import { type SessionClaims, sessionClaimsSchema } from "../shared/contract/accounts.ts";
import { claimsStillValid, verifiedTokens } from "../shared/node/verified-tokens.ts";
import type { GatewayConfig } from "./config.ts";

/** The keys to check a token with could not be had (JWKS unreachable, slow or broken). */
export class KeysUnavailableError extends Error {
  override name = "KeysUnavailableError";
}

/** Resolves the claims of a valid token, null for anything else; throws KeysUnavailableError. */
export type TokenVerifier = (token: string) => Promise<SessionClaims | null>;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Errors of the key set that say something about the token (an unknown kid), not about the keys. */
const TOKEN_FAULTS = [
  joseErrors.JWKSNoMatchingKey,
  joseErrors.JWKSMultipleMatchingKeys,
  joseErrors.JOSENotSupported,
];

function remoteKeys(url: URL): JWTVerifyGetKey {
  const jwks = createRemoteJWKSet(url);
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      if (TOKEN_FAULTS.some((fault) => error instanceof fault)) throw error;
      throw new KeysUnavailableError("session keys unavailable", { cause: error });
    }
  };
}

export function createTokenVerifier(config: GatewayConfig): TokenVerifier {
  const { keys, issuer, audience } = config.session;
  const options = {
    algorithms: keys.kind === "secret" ? ["HS256"] : ["ES256"],
    issuer,
    audience,
    requiredClaims: ["exp", "iat", "sub"],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  };
  const key = keys.kind === "secret" ? keys.secret : remoteKeys(keys.url);
  const verifySignature = (token: string) =>
    typeof key === "function" ? jwtVerify(token, key, options) : jwtVerify(token, key, options);

  // A signature, once checked, is remembered for a minute (shared/node/verified-tokens.ts): verifying
  // ES256 on every request was the largest cost of a proxied call. jose itself keeps the fetched
  // key set for 10 minutes, so a key rotated out of the JWKS keeps verifying here for up to 11
  // minutes; a revoked session ends sooner, through the backend's check of each /api call and the
  // session-status check of pages (session-status.ts).
  const verified = verifiedTokens();

  return async (token) => {
    const now = nowSeconds();
    const cached = verified.recall(token, now);
    if (cached) return claimsStillValid(cached, now) ? cached : null;
    try {
      const { payload } = await verifySignature(token);
      const claims = v.safeParse(sessionClaimsSchema, payload);
      if (!claims.success || !claimsStillValid(claims.output, now)) return null;
      verified.remember(token, claims.output, now);
      return claims.output;
    } catch (error) {
      if (error instanceof KeysUnavailableError) throw error;
      // Malformed input makes jose throw a TypeError or a JOSEError: either way, no session.
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  };
}
