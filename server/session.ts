/**
 * The session: the backend-issued JWT kept in the HttpOnly `auth_token` cookie. This module verifies
 * it, refreshes it when it is older than 55 minutes, and sets or clears the cookie.
 */
import type { CookieOptions, NextFunction, Request, Response } from "express";
import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from "jose";
import {
  CLOCK_TOLERANCE_SECONDS,
  SESSION_ABSOLUTE_LIFETIME_SECONDS,
  SESSION_COOKIE_MAX_AGE_SECONDS,
  SESSION_COOKIE_NAME,
  SESSION_REFRESH_AFTER_SECONDS,
} from "../shared/constants.ts";
import {
  API_PATHS,
  refreshResponseSchema,
  type SessionClaims,
  type SessionUser,
  sessionClaimsSchema,
} from "../shared/contract.ts";
import type { GatewayConfig } from "./config.ts";

export interface Session {
  token: string;
  claims: SessionClaims;
  user: SessionUser;
}

const REFRESH_TIMEOUT_MS = 5000;
/**
 * A signature, once checked, is remembered for a minute (bounded, oldest out first): verifying ES256
 * on every request was the largest cost of a proxied call. The minute bounds how long a rotated-out
 * key keeps working here; revocation is enforced by the backend on every call regardless.
 */
const VERIFIED_CACHE_SECONDS = 60;
const VERIFIED_CACHE_ENTRIES = 10_000;

export type TokenVerifier = (token: string) => Promise<SessionClaims | null>;

/**
 * A token counts only if its signature, algorithm, issuer, audience and expiry all check out, and it
 * is within the absolute lifetime. Anything else, including a token without `exp`, is no session.
 */
export function createTokenVerifier(config: GatewayConfig): TokenVerifier {
  const { keys, issuer, audience } = config.session;
  const algorithms = keys.kind === "secret" ? ["HS256"] : ["ES256"];
  const options = {
    algorithms,
    issuer,
    audience,
    requiredClaims: ["exp", "iat", "sub"],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  };
  const jwks: JWTVerifyGetKey | undefined = keys.kind === "jwks" ? createRemoteJWKSet(keys.url) : undefined;
  const verifySignature = (token: string) =>
    keys.kind === "secret"
      ? jwtVerify(token, keys.secret, options)
      : jwtVerify(token, jwks as JWTVerifyGetKey, options);

  const verified = new Map<string, { claims: SessionClaims; checkedAt: number }>();

  /** Time checks run on every use; only the signature check is remembered. */
  const stillValid = (claims: SessionClaims, now: number) =>
    claims.exp + CLOCK_TOLERANCE_SECONDS > now && now - claims.auth_time <= SESSION_ABSOLUTE_LIFETIME_SECONDS;

  return async (token) => {
    const now = nowSeconds();
    const cached = verified.get(token);
    if (cached && now - cached.checkedAt < VERIFIED_CACHE_SECONDS) {
      return stillValid(cached.claims, now) ? cached.claims : null;
    }
    try {
      const { payload } = await verifySignature(token);
      const claims = sessionClaimsSchema.safeParse(payload);
      if (!claims.success || !stillValid(claims.data, now)) return null;
      verified.delete(token);
      verified.set(token, { claims: claims.data, checkedAt: now });
      if (verified.size > VERIFIED_CACHE_ENTRIES) verified.delete(verified.keys().next().value as string);
      return claims.data;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function sessionUserOf(claims: SessionClaims): SessionUser {
  return {
    id: claims.sub,
    email: claims.email,
    name: claims.name,
    role: claims.role,
    provider: claims.provider,
    orgName: claims.orgName,
    orgId: claims.orgId,
  };
}

function cookieOptions(req: Request): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "strict",
    secure: req.secure,
    path: "/",
  };
}

export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.cookie(SESSION_COOKIE_NAME, token, {
    ...cookieOptions(req),
    maxAge: SESSION_COOKIE_MAX_AGE_SECONDS * 1000,
  });
  res.set("Cache-Control", "no-store");
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE_NAME, cookieOptions(req));
  res.set("Cache-Control", "no-store");
}

export function sessionOf(res: Response): Session | null {
  return (res.locals.session as Session | undefined) ?? null;
}

type RefreshOutcome = { kind: "refreshed"; token: string } | { kind: "refused" } | { kind: "unavailable" };

/**
 * Sliding refresh. Parallel requests carrying the same old token share one upstream refresh, so a
 * page that fires several calls at once does not mint several sessions.
 */
function createRefresher(config: GatewayConfig) {
  const inFlight = new Map<string, Promise<RefreshOutcome>>();

  async function exchange(token: string, requestId: string): Promise<RefreshOutcome> {
    try {
      const response = await fetch(`${config.backendUrl}${API_PATHS.refresh}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "x-request-id": requestId },
        signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS),
      });
      if (response.status === 401 || response.status === 403) return { kind: "refused" };
      if (!response.ok) return { kind: "unavailable" };
      const body = refreshResponseSchema.safeParse(await response.json());
      return body.success ? { kind: "refreshed", token: body.data.token } : { kind: "unavailable" };
    } catch {
      return { kind: "unavailable" };
    }
  }

  return (token: string, requestId: string): Promise<RefreshOutcome> => {
    let pending = inFlight.get(token);
    if (!pending) {
      pending = exchange(token, requestId).finally(() => inFlight.delete(token));
      inFlight.set(token, pending);
    }
    return pending;
  };
}

/**
 * Puts the verified session (or null) on res.locals for everything after it. A cookie that does not
 * verify is cleared; a refused refresh logs out; a backend that cannot refresh right now leaves the
 * still-valid session alone.
 */
export function sessionMiddleware(config: GatewayConfig, verify: TokenVerifier) {
  const refresh = createRefresher(config);

  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.session = null;
    const token: unknown = req.cookies?.[SESSION_COOKIE_NAME];
    if (typeof token !== "string" || token === "") return next();
    try {
      const claims = await verify(token);
      if (!claims) {
        clearSessionCookie(req, res);
        return next();
      }
      let session: Session = { token, claims, user: sessionUserOf(claims) };
      if (nowSeconds() - claims.iat >= SESSION_REFRESH_AFTER_SECONDS) {
        const outcome = await refresh(token, String(req.id));
        if (outcome.kind === "refused") {
          clearSessionCookie(req, res);
          return next();
        }
        if (outcome.kind === "refreshed") {
          const fresh = await verify(outcome.token);
          if (fresh && fresh.sid === claims.sid && fresh.sub === claims.sub) {
            setSessionCookie(req, res, outcome.token);
            session = { token: outcome.token, claims: fresh, user: sessionUserOf(fresh) };
          }
        }
      }
      res.locals.session = session;
      next();
    } catch (error) {
      next(error);
    }
  };
}
