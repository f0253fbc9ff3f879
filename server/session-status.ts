/**
 * Whether a verified session is still live. A signature proves a token was issued, not that its
 * session was not ended since: logout and revocation live in the backend. So the gateway
 *  - remembers the sessions it logged out itself, and refuses them at once, and
 *  - asks the backend (`GET /auth/session-status`, one indexed query there) at most once per
 *    STATUS_CACHE_SECONDS per session, so a session ended elsewhere (another gateway instance, a
 *    revocation on re-link) stops opening pages within that time.
 * A backend that cannot answer is no verdict: the session is kept, and asked about again soon.
 */
import { API_PATHS, type SessionClaims } from "../shared/contract.ts";
import type { GatewayConfig } from "./config.ts";
import { nowSeconds } from "./session-token.ts";

/** Well within the 60 seconds a revoked session may keep working on another instance. */
const STATUS_CACHE_SECONDS = 30;
/** After a failed check, ask again this soon rather than on every request. */
const FAILED_CHECK_RETRY_SECONDS = 5;
const STATUS_TIMEOUT_MS = 3000;
const MAX_ENTRIES = 10_000;

export type SessionStatus = "live" | "ended" | "unknown";

/** A bounded map whose oldest entries go first. */
function boundedSet<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
}

export interface SessionStatusChecker {
  /** The session's status, from memory when checked recently. */
  check(token: string, claims: SessionClaims, requestId: string): Promise<SessionStatus>;
  /** Records that a session ended (logout on this instance): refused from now on. */
  ended(claims: SessionClaims): void;
  /** Records that the backend just vouched for the session (a refresh it granted). */
  live(claims: SessionClaims): void;
}

export function createSessionStatusChecker(config: GatewayConfig): SessionStatusChecker {
  /** sid → the token expiry after which remembering it is pointless. */
  const endedSessions = new Map<string, number>();
  /** sid → when the backend last answered and what. */
  const answers = new Map<string, { status: SessionStatus; until: number }>();
  const inFlight = new Map<string, Promise<SessionStatus>>();

  async function ask(token: string, requestId: string): Promise<SessionStatus> {
    try {
      const response = await fetch(`${config.backendUrl}${API_PATHS.sessionStatus}`, {
        headers: { authorization: `Bearer ${token}`, "x-request-id": requestId },
        signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.status === 401 || response.status === 403) return "ended";
      return response.ok ? "live" : "unknown";
    } catch {
      return "unknown";
    }
  }

  const remember = (sid: string, status: SessionStatus) =>
    boundedSet(answers, sid, {
      status,
      until: nowSeconds() + (status === "unknown" ? FAILED_CHECK_RETRY_SECONDS : STATUS_CACHE_SECONDS),
    });

  return {
    async check(token, claims, requestId) {
      const now = nowSeconds();
      const endedUntil = endedSessions.get(claims.sid);
      if (endedUntil !== undefined && endedUntil >= now) return "ended";
      const known = answers.get(claims.sid);
      if (known && known.until > now) return known.status;
      let pending = inFlight.get(claims.sid);
      if (!pending) {
        pending = ask(token, requestId).then((status) => {
          remember(claims.sid, status);
          if (status === "ended") boundedSet(endedSessions, claims.sid, claims.exp);
          return status;
        });
        pending.finally(() => inFlight.delete(claims.sid)).catch(() => {});
        inFlight.set(claims.sid, pending);
      }
      return pending;
    },
    ended(claims) {
      boundedSet(endedSessions, claims.sid, claims.exp);
      answers.delete(claims.sid);
    },
    live(claims) {
      remember(claims.sid, "live");
    },
  };
}
