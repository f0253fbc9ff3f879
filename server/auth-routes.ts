/**
 * The /auth routes the gateway answers itself: who is signed in, renewing the session, and
 * sign-out. Everything else under /auth goes to the backend. They run on the proxied path's plain
 * request and response (proxy.ts); their paths match exactly, case and trailing slash included.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { API_PATHS } from "../shared/contract/common.ts";
import type { Logger } from "../shared/node/logging.ts";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError, sendJson } from "./errors.ts";
import { type CallFacts, type RenewDeps, renewSession, type Session, sessionTokenOf } from "./session.ts";

const REVOKE_TIMEOUT_MS = 3000;

/** What the proxied path knows of the call when it hands it to a route. */
export interface AuthCall {
  facts: CallFacts;
  session: Session | null;
  /** The cookie could not be checked: the session keys are unavailable. */
  undecided: boolean;
  log: Logger;
}

type AuthRoute = (req: IncomingMessage, res: ServerResponse, call: AuthCall) => Promise<void> | void;

export function gatewayAuthRoutes(config: GatewayConfig, deps: RenewDeps) {
  const whoIsSignedIn: AuthRoute = (_req, res, { session, undecided }) => {
    if (undecided) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
    sendJson(res, 200, { user: session?.user ?? null });
  };

  // Renews the session now, so a token minted before a change (a new user or organisation name)
  // gives way to one that carries it. Answers like GET, with the renewed user.
  const renew: AuthRoute = async (_req, res, { facts, session, undecided }) => {
    if (undecided) return sendError(res, 503, GATEWAY_ERRORS.sessionCheckUnavailable);
    if (!session) return sendError(res, 401, GATEWAY_ERRORS.noAuthToken);
    const renewed = await renewSession(facts, res, session, deps);
    if (renewed === "refused") {
      deps.cookie.clear(res, facts.secure);
      return sendError(res, 401, GATEWAY_ERRORS.noAuthToken);
    }
    if (renewed === "unavailable") return sendError(res, 502, GATEWAY_ERRORS.upstreamUnavailable);
    // The other sessions of the organisation ask the backend for the names again at their next request.
    deps.status.forgetOrganization(renewed.claims.orgId);
    deps.status.live(renewed.claims);
    sendJson(res, 200, { user: renewed.user });
  };

  // The cookie is cleared whatever the backend says, so sign-out works even when it is down. This
  // instance refuses the session from now on; others learn it from the backend within seconds.
  const logout: AuthRoute = async (req, res, { facts, session, log }) => {
    const token = sessionTokenOf(req);
    if (session) deps.status.ended(session.claims);
    deps.cookie.clear(res, facts.secure);
    if (token) {
      try {
        await fetch(`${config.backendUrl}${API_PATHS.logout}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "x-request-id": facts.id },
          signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
        });
      } catch (error) {
        log.warn(
          { err: { message: (error as Error).message } },
          "session revoke failed; cookie cleared anyway",
        );
      }
    }
    res.statusCode = 204;
    res.end();
  };

  const routes = new Map<string, AuthRoute>([
    [`GET ${API_PATHS.session}`, whoIsSignedIn],
    [`HEAD ${API_PATHS.session}`, whoIsSignedIn],
    [`POST ${API_PATHS.session}`, renew],
    [`POST ${API_PATHS.logout}`, logout],
  ]);
  /** The gateway's own route for the method and path, if it has one. */
  return (method: string | undefined, path: string): AuthRoute | undefined => routes.get(`${method} ${path}`);
}

export type AuthRoutes = ReturnType<typeof gatewayAuthRoutes>;
