/**
 * The session: the backend-issued JWT kept in the HttpOnly `auth_token` cookie. This module puts
 * the verified session on each request, refreshes the token when it is older than 55 minutes, ends
 * it when the backend says it has ended, and sets or clears the cookie. See docs/architecture.md
 * (sessions) and docs/security.md.
 */
import type { CookieOptions, NextFunction, Request, Response } from "express";
import {
  SESSION_COOKIE_MAX_AGE_SECONDS,
  SESSION_COOKIE_NAME,
  SESSION_REFRESH_AFTER_SECONDS,
} from "../shared/constants.ts";
import {
  refreshResponseSchema,
  type SessionClaims,
  type SessionNames,
  type SessionUser,
} from "../shared/contract/accounts-schemas.ts";
import { API_PATHS } from "../shared/contract/common.ts";
import type { GatewayConfig } from "./config.ts";
import type { SessionStatusChecker } from "./session-status.ts";
import { KeysUnavailableError, nowSeconds, type TokenVerifier } from "./session-token.ts";

export interface Session {
  token: string;
  claims: SessionClaims;
  user: SessionUser;
}

const REFRESH_TIMEOUT_MS = 5000;

/** Who is signed in; the names the backend gave at its last check win over the token's. */
function sessionUserOf(claims: SessionClaims, names?: SessionNames): SessionUser {
  return {
    id: claims.sub,
    email: claims.email,
    name: names?.name ?? claims.name,
    role: claims.role,
    provider: claims.provider,
    orgName: names?.orgName ?? claims.orgName,
    orgId: claims.orgId,
  };
}

/**
 * Secure whenever the public origin is https, so a deployment behind a TLS proxy gets a Secure
 * cookie even when the proxy is not trusted for X-Forwarded-Proto; also on any https request.
 */
function cookieOptions(config: GatewayConfig, req: Request): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "strict",
    secure: config.publicOrigin.startsWith("https:") || req.secure,
    path: "/",
  };
}

export interface SessionCookie {
  set(req: Request, res: Response, token: string): void;
  clear(req: Request, res: Response): void;
}

export function sessionCookie(config: GatewayConfig): SessionCookie {
  return {
    set(req, res, token) {
      res.cookie(SESSION_COOKIE_NAME, token, {
        ...cookieOptions(config, req),
        maxAge: SESSION_COOKIE_MAX_AGE_SECONDS * 1000,
      });
      res.set("Cache-Control", "no-store");
    },
    clear(req, res) {
      res.clearCookie(SESSION_COOKIE_NAME, cookieOptions(config, req));
      res.set("Cache-Control", "no-store");
    },
  };
}

export function sessionOf(res: Response): Session | null {
  return (res.locals.session as Session | undefined) ?? null;
}

/** The cookie's token as sent, verified or not (sign-out revokes it even when keys are down). */
export function sessionTokenOf(req: Request): string | undefined {
  const token: unknown = req.cookies?.[SESSION_COOKIE_NAME];
  return typeof token === "string" && token !== "" ? token : undefined;
}

/**
 * True when the request carries a cookie that could not be checked because the keys were
 * unavailable. Nobody is signed out for that; where a decision is needed the answer is 503.
 */
export function sessionUndecided(res: Response): boolean {
  return res.locals.sessionUndecided === true;
}

type RefreshOutcome = { kind: "refreshed"; token: string } | { kind: "refused" } | { kind: "unavailable" };

/**
 * Exchanges a token at the backend's refresh for a new one of the same session. Parallel requests
 * carrying the same old token share one upstream refresh, so a page that fires several calls at
 * once does not mint several sessions. One per gateway, shared by the sliding refresh and by
 * `POST /auth/session`.
 */
export function createRefresher(config: GatewayConfig) {
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

export type Refresher = ReturnType<typeof createRefresher>;

export interface RenewDeps {
  refresh: Refresher;
  verify: TokenVerifier;
  status: SessionStatusChecker;
  cookie: SessionCookie;
}

/**
 * Renews a session now: refresh, verify the new token (same user and session), set it as the
 * cookie. Answers the new session, or why there is none: the backend refused (the session is
 * over) or could not give a usable token (the old one is still valid).
 */
export async function renewSession(
  req: Request,
  res: Response,
  current: { token: string; claims: SessionClaims },
  deps: RenewDeps,
): Promise<Session | "refused" | "unavailable"> {
  const outcome = await deps.refresh(current.token, String(req.id));
  if (outcome.kind !== "refreshed") return outcome.kind;
  const fresh = await deps.verify(outcome.token).catch(() => null);
  if (!fresh || fresh.sid !== current.claims.sid || fresh.sub !== current.claims.sub) return "unavailable";
  deps.status.live(fresh);
  deps.cookie.set(req, res, outcome.token);
  return { token: outcome.token, claims: fresh, user: sessionUserOf(fresh) };
}

/**
 * Puts the verified session (or null) on res.locals for everything after it. A cookie that does not
 * verify, a refused refresh and a session the backend says has ended all log out; a backend or key
 * set that cannot answer right now leaves the cookie alone.
 */
export function sessionMiddleware(deps: RenewDeps) {
  const { verify, status, cookie } = deps;

  async function resolve(req: Request, res: Response, token: string): Promise<Session | null> {
    const claims = await verify(token);
    if (!claims) return null;
    if (nowSeconds() - claims.iat >= SESSION_REFRESH_AFTER_SECONDS) {
      const renewed = await renewSession(req, res, { token, claims }, deps);
      if (renewed === "refused") return null;
      if (renewed !== "unavailable") return renewed;
    }
    const check = await status.check(token, claims, String(req.id));
    if (check.status === "ended") return null;
    return { token, claims, user: sessionUserOf(claims, check.names) };
  }

  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.session = null;
    const token = sessionTokenOf(req);
    if (!token) return next();
    try {
      const session = await resolve(req, res, token);
      if (!session) cookie.clear(req, res);
      res.locals.session = session;
      next();
    } catch (error) {
      if (!(error instanceof KeysUnavailableError)) return next(error);
      req.log.warn({ err: { message: error.message } }, "session keys unavailable; session kept");
      res.locals.sessionUndecided = true;
      next();
    }
  };
}
