/**
 * Whether a verified session is still live. A signature proves a token was issued, not that its
 * session was not ended since: logout and revocation live in the backend. So the gateway
 *  - remembers the sessions it logged out itself, or that the backend refused on an /api call, and
 *    refuses them at once, and
 *  - for pages and its own /auth routes (not proxied /api calls, which the backend checks itself:
 *    docs/decisions/044-lean-proxied-path.md) asks the backend (`GET /auth/session-status`, one
 *    indexed query there) on every request by default, so a session ended elsewhere (another gateway instance, a revocation on re-link, a
 *    password reset) is refused at once; SESSION_STATUS_CACHE_SECONDS (at most 30) keeps a live
 *    answer that long instead, and a session ended elsewhere then stops within that time
 *    (docs/decisions/042-scale-out.md). Concurrent requests of one session share one call.
 * A backend that cannot answer is no verdict: the session is kept, and asked about again soon.
 *
 * The backend's answer also carries the user's and organisation's names as they are now; pages
 * show those, not the token's, so a rename elsewhere shows at the next check. A rename renews the
 * renaming session (`POST /auth/session`), which forgets the answers kept for its organisation, so
 * on this instance every browser of that organisation shows the new names at its next request.
 */

import {
  type SessionClaims,
  type SessionNames,
  sessionStatusResponseSchema,
} from "../shared/contract/accounts-schemas.ts";
import { API_PATHS } from "../shared/contract/common.ts";
import type { GatewayConfig } from "./config.ts";
import { nowSeconds } from "./session-token.ts";

/** After a failed check, ask again this soon rather than on every request. */
const FAILED_CHECK_RETRY_SECONDS = 5;
const STATUS_TIMEOUT_MS = 3000;
const MAX_ENTRIES = 10_000;

export type SessionStatus = "live" | "ended" | "unknown";

/** A check's verdict and, when the backend gave them, the names to show. */
export interface SessionCheck {
  status: SessionStatus;
  names?: SessionNames;
}

/** A bounded map whose oldest entries go first. */
function boundedSet<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
}

export interface SessionStatusChecker {
  /** The session's status, from memory when checked recently. */
  check(token: string, claims: SessionClaims, requestId: string): Promise<SessionCheck>;
  /** Records that a session ended (logout on this instance, or the backend refused it): refused from now on. */
  ended(claims: SessionClaims): void;
  /** Whether this instance knows the session ended, without asking anyone. */
  endedHere(claims: SessionClaims): boolean;
  /** Records that the backend just vouched for the session (a refresh it granted). */
  live(claims: SessionClaims): void;
  /** Forgets what the backend said of the organisation's sessions: a name changed. */
  forgetOrganization(orgId: string): void;
}

export function createSessionStatusChecker(config: GatewayConfig): SessionStatusChecker {
  /** sid → the token expiry after which remembering it is pointless. */
  const endedSessions = new Map<string, number>();
  /** sid → when the backend last answered and what, with the session's organisation. */
  const answers = new Map<string, SessionCheck & { orgId: string; until: number }>();
  const inFlight = new Map<string, Promise<SessionCheck>>();

  async function ask(token: string, requestId: string): Promise<SessionCheck> {
    try {
      const response = await fetch(`${config.backendUrl}${API_PATHS.sessionStatus}`, {
        headers: { authorization: `Bearer ${token}`, "x-request-id": requestId },
        signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
      });
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        return { status: "ended" };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { status: "unknown" };
      }
      // A live session whose names did not come (an older backend): the token's names stand.
      const names = sessionStatusResponseSchema.safeParse(await response.json().catch(() => undefined));
      return names.success ? { status: "live", names: names.data } : { status: "live" };
    } catch {
      return { status: "unknown" };
    }
  }

  const remember = (claims: SessionClaims, check: SessionCheck) =>
    boundedSet(answers, claims.sid, {
      ...check,
      orgId: claims.orgId,
      until:
        nowSeconds() +
        (check.status === "unknown" ? FAILED_CHECK_RETRY_SECONDS : config.sessionStatusCacheSeconds),
    });

  const endedHere = (claims: SessionClaims, now = nowSeconds()) => {
    const endedUntil = endedSessions.get(claims.sid);
    return endedUntil !== undefined && endedUntil >= now;
  };

  return {
    endedHere,
    async check(token, claims, requestId) {
      const now = nowSeconds();
      if (endedHere(claims, now)) return { status: "ended" };
      const known = answers.get(claims.sid);
      if (known && known.until > now) return known;
      let pending = inFlight.get(claims.sid);
      if (!pending) {
        pending = ask(token, requestId).then((check) => {
          remember(claims, check);
          if (check.status === "ended") boundedSet(endedSessions, claims.sid, claims.exp);
          return check;
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
      // A token the backend just minted carries the names as they are now.
      remember(claims, { status: "live", names: { name: claims.name, orgName: claims.orgName } });
    },
    forgetOrganization(orgId) {
      // Renames are rare and the map is bounded, so one pass over it is fine.
      for (const [sid, answer] of answers) if (answer.orgId === orgId) answers.delete(sid);
    },
  };
}
