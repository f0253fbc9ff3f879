/**
 * The session: the backend-issued JWT kept in the HttpOnly `auth_token` cookie. This module puts
 * the verified session on each request, refreshes the token when it is older than 55 minutes, ends
 * it when the backend says it has ended, and sets or clears the cookie. The gateway's own /auth
 * routes ask the backend whether the session is still live (session-status.ts); pages take the
 * answers to their own calls instead (page-session.ts, docs/decisions/049); proxied /api calls
 * leave it to the backend, which checks their session itself (docs/decisions/044).
 * See docs/architecture.md (sessions) and docs/security.md.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookie } from "cookie";
import type { NextFunction, Request, Response } from "express";
import * as v from "valibot";
import {
  SESSION_COOKIE_MAX_AGE_SECONDS,
  SESSION_COOKIE_NAME,
  SESSION_REFRESH_AFTER_SECONDS,
} from "../shared/constants.ts";
import { refreshResponseSchema, type SessionClaims, type SessionUser } from "../shared/contract/accounts.ts";
import { API_PATHS } from "../shared/contract/common.ts";
import type { SessionConfirmation } from "../shared/gateway-context.ts";
import type { GatewayConfig } from "./config.ts";
import { type PageSessionDeps, pageSessionConfirmation } from "./page-session.ts";
import { type SessionStatusChecker, sessionUserOf } from "./session-status.ts";
import { KeysUnavailableError, nowSeconds, type TokenVerifier } from "./session-token.ts";

export interface Session {
  token: string;
  claims: SessionClaims;
  user: SessionUser;
}

const REFRESH_TIMEOUT_MS = 5000;

/** What the session code needs to know of a request, with Express or without. */
export interface CallFacts {
  id: string;
  /** Came over https (directly, or said so by a trusted proxy). */
  secure: boolean;
}

export const callFactsOf = (req: Request): CallFacts => ({ id: String(req.id), secure: req.secure });

export interface SessionCookie {
  set(res: ServerResponse, token: string, secure: boolean): void;
  clear(res: ServerResponse, secure: boolean): void;
}

/**
 * HttpOnly, SameSite=Strict, Path=/; Secure whenever the public origin is https, so a deployment
 * behind a TLS proxy gets a Secure cookie even when the proxy is not trusted for X-Forwarded-Proto;
 * also on any https request. Written as Express's `res.cookie` writes it, on any response.
 */
export function sessionCookie(config: GatewayConfig): SessionCookie {
  const flags = (secure: boolean) =>
    `HttpOnly${config.publicOrigin.startsWith("https:") || secure ? "; Secure" : ""}; SameSite=Strict`;
  const write = (res: ServerResponse, line: string) => {
    res.appendHeader("Set-Cookie", line);
    res.setHeader("Cache-Control", "no-store");
  };
  return {
    set(res, token, secure) {
      const expires = new Date(Date.now() + SESSION_COOKIE_MAX_AGE_SECONDS * 1000).toUTCString();
      write(
        res,
        `${SESSION_COOKIE_NAME}=${encodeURIComponent(token)}; Max-Age=${SESSION_COOKIE_MAX_AGE_SECONDS}; Path=/; Expires=${expires}; ${flags(secure)}`,
      );
    },
    clear(res, secure) {
      write(res, `${SESSION_COOKIE_NAME}=; Path=/; Expires=${new Date(0).toUTCString()}; ${flags(secure)}`);
    },
  };
}

export function sessionOf(res: Response): Session | null {
  return (res.locals.session as Session | undefined) ?? null;
}

/** The backend's word on a page request's session (page-session.ts); set with the session. */
export function sessionConfirmationOf(res: Response): SessionConfirmation {
  const confirmation = res.locals.sessionConfirmation as SessionConfirmation | undefined;
  if (!confirmation) throw new Error("sessionMiddleware must run before the page handler");
  return confirmation;
}

/**
 * The cookie's token as sent, verified or not (sign-out revokes it even when keys are down): the
 * first `auth_token` of the Cookie header, percent-decoded.
 */
export function sessionTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  const token = header ? parseCookie(header)[SESSION_COOKIE_NAME] : undefined;
  return token === "" ? undefined : token;
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
      const body = v.safeParse(refreshResponseSchema, await response.json());
      return body.success ? { kind: "refreshed", token: body.output.token } : { kind: "unavailable" };
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
  call: CallFacts,
  res: ServerResponse,
  current: { token: string; claims: SessionClaims },
  deps: RenewDeps,
): Promise<Session | "refused" | "unavailable"> {
  const outcome = await deps.refresh(current.token, call.id);
  if (outcome.kind !== "refreshed") return outcome.kind;
  const fresh = await deps.verify(outcome.token).catch(() => null);
  if (!fresh || fresh.sid !== current.claims.sid || fresh.sub !== current.claims.sub) return "unavailable";
  deps.status.live(fresh);
  deps.cookie.set(res, outcome.token, call.secure);
  return { token: outcome.token, claims: fresh, user: sessionUserOf(fresh) };
}

/**
 * The verified session of a cookie's token, or null (and the cookie cleared): a token that does not
 * verify, a refused refresh and a session known to have ended all log out; a backend that cannot
 * answer right now leaves the cookie alone. Throws KeysUnavailableError when the keys cannot be had.
 *
 * `askBackend`: whether to ask the backend now if the session is still live (session-status.ts).
 * The gateway's own /auth routes do; a proxied /api call does not, because the backend refuses an
 * ended session itself (401), and the proxy then ends it here too (proxy.ts); nor does a page,
 * whose own calls to the backend tell (page-session.ts). Either way a session this instance logged
 * out is refused at once.
 */
export function sessionResolver(deps: RenewDeps) {
  const { verify, status, cookie } = deps;

  async function resolve(
    call: CallFacts,
    res: ServerResponse,
    token: string,
    askBackend: boolean,
  ): Promise<Session | null> {
    const claims = await verify(token);
    if (!claims) return null;
    if (nowSeconds() - claims.iat >= SESSION_REFRESH_AFTER_SECONDS) {
      const renewed = await renewSession(call, res, { token, claims }, deps);
      if (renewed === "refused") return null;
      if (renewed !== "unavailable") return renewed;
    }
    if (!askBackend) return status.endedHere(claims) ? null : { token, claims, user: sessionUserOf(claims) };
    const check = await status.check(token, claims, call.id);
    if (check.status === "ended") return null;
    return { token, claims, user: sessionUserOf(claims, check.names) };
  }

  return async (
    call: CallFacts,
    res: ServerResponse,
    token: string,
    options: { askBackend: boolean },
  ): Promise<Session | null> => {
    const session = await resolve(call, res, token, options.askBackend);
    if (!session) cookie.clear(res, call.secure);
    return session;
  };
}

export type SessionResolver = ReturnType<typeof sessionResolver>;

/**
 * Puts the verified session (or null) on res.locals for the pages, with what will confirm that the
 * backend still holds it: the answers to the page's own calls, or a status call when they do not
 * tell (page-session.ts). Keys that cannot be had leave the cookie alone and the session undecided.
 */
export function sessionMiddleware(resolveSession: SessionResolver, deps: PageSessionDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.session = null;
    const token = sessionTokenOf(req);
    if (!token) return next();
    try {
      const call = callFactsOf(req);
      const session = await resolveSession(call, res, token, { askBackend: false });
      res.locals.session = session;
      // A renewed token is one the backend has just issued: it vouched for the session already.
      if (session)
        res.locals.sessionConfirmation = pageSessionConfirmation(
          deps,
          call,
          res,
          session,
          session.token !== token,
        );
      next();
    } catch (error) {
      if (!(error instanceof KeysUnavailableError)) return next(error);
      req.log.warn({ err: { message: error.message } }, "session keys unavailable; session kept");
      res.locals.sessionUndecided = true;
      next();
    }
  };
}
