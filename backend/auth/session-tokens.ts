/**
 * Session tokens: the JWTs the backend signs at sign-in and refresh, and that the gateway keeps in
 * its cookie. Claims are exactly `sessionClaimsSchema` plus iss and aud. Two key kinds:
 * - HS256 with a shared secret (SESSION_SECRET, at least 32 bytes): the gateway verifies with it;
 * - ES256 with a key pair the backend owns: the gateway verifies with the public JWKS.
 * Usable on its own (tests and the gateway's tests mint tokens with it).
 */

import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import * as v from "valibot";
import { CLOCK_TOLERANCE_SECONDS, SESSION_ABSOLUTE_LIFETIME_SECONDS } from "../../shared/constants.ts";
import { type SessionClaims, sessionClaimsSchema } from "../../shared/contract/accounts.ts";
import { notExpired, verifiedTokens } from "../../shared/node/verified-tokens.ts";

export type SessionKey =
  | { alg: "HS256"; secret: Uint8Array }
  | { alg: "ES256"; kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };

/** What a token says about its session; iat and exp are added when it is minted. */
export type SessionIdentity = Omit<SessionClaims, "iat" | "exp">;

export interface SessionTokenOptions {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface SessionTokens {
  readonly alg: SessionKey["alg"];
  /** Signs a token valid from `now` (seconds; default the clock) for ttlSeconds. */
  mint(identity: SessionIdentity, now?: number): Promise<string>;
  /** Checks signature, algorithm, iss, aud and exp; rejects with InvalidSessionToken. */
  verify(token: string, now?: number): Promise<SessionClaims>;
  /** The public key set to publish (ES256), or null for a shared secret. */
  jwks(): JSONWebKeySet | null;
}

export class InvalidSessionToken extends Error {
  override name = "InvalidSessionToken";
}

/** Seconds since the epoch. */
export function epochSeconds(date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

export function sessionKeyFromSecret(secret: string): SessionKey {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.byteLength < 32) throw new Error("A session secret must be at least 32 bytes long");
  return { alg: "HS256", secret: bytes };
}

/** A new ES256 key pair, with its JWKs for storage; the kid is the public key's thumbprint. */
export async function generateSessionKeyPair(): Promise<{ kid: string; privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, privateJwk: await exportJWK(privateKey), publicJwk };
}

export async function sessionKeyFromJwks(kid: string, privateJwk: JWK, publicJwk: JWK): Promise<SessionKey> {
  const [privateKey, publicKey] = await Promise.all([
    importJWK(privateJwk, "ES256"),
    importJWK(publicJwk, "ES256"),
  ]);
  if (!(privateKey instanceof CryptoKey) || !(publicKey instanceof CryptoKey)) {
    throw new Error("Stored signing key is not an EC key");
  }
  return {
    alg: "ES256",
    kid,
    privateKey,
    publicKey,
    publicJwk: { ...publicJwk, kid, alg: "ES256", use: "sig" },
  };
}

export function createSessionTokens(key: SessionKey, options: SessionTokenOptions): SessionTokens {
  const signingKey = key.alg === "HS256" ? key.secret : key.privateKey;
  const verifyingKey = key.alg === "HS256" ? key.secret : key.publicKey;
  const header =
    key.alg === "HS256" ? { alg: key.alg, typ: "JWT" } : { alg: key.alg, kid: key.kid, typ: "JWT" };
  // Every /api call of a session brings the same token: its signature is checked once a minute
  // (shared/node/verified-tokens.ts), its expiry on every use; the session's row is still read each time.
  const verified = verifiedTokens();

  return {
    alg: key.alg,

    async mint(identity, now = epochSeconds()) {
      // No token outlives the session's absolute lifetime, whatever the TTL.
      const exp = Math.min(now + options.ttlSeconds, identity.auth_time + SESSION_ABSOLUTE_LIFETIME_SECONDS);
      return new SignJWT({ ...identity })
        .setProtectedHeader(header)
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(signingKey);
    },

    async verify(token, now = epochSeconds()) {
      const cached = verified.recall(token, now);
      if (cached) {
        if (notExpired(cached, now)) return cached;
        throw new InvalidSessionToken("Invalid session token");
      }
      try {
        const { payload } = await jwtVerify(token, verifyingKey, {
          algorithms: [key.alg],
          issuer: options.issuer,
          audience: options.audience,
          requiredClaims: ["exp", "iat"],
          currentDate: new Date(now * 1000),
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        const claims = v.parse(sessionClaimsSchema, payload);
        verified.remember(token, claims, now);
        return claims;
      } catch (error) {
        throw new InvalidSessionToken("Invalid session token", { cause: error });
      }
    },

    jwks() {
      return key.alg === "ES256" ? { keys: [key.publicJwk] } : null;
    },
  };
}
