/**
 * Whether a verified session is still live. A signature proves a token was issued, not that its
 * session was not ended since: logout and revocation live in the backend. So the gateway
 *  - remembers the sessions it logged out itself, or that the backend refused on an /api call, and
 *    refuses them at once, and
 *  - for pages and its own /auth routes (not proxied /api calls, which the backend checks itself:
 *    docs/decisions/044-lean-proxied-path.md) has the backend's word on every request by default,
 *    so a session ended elsewhere (another gateway instance, a revocation on re-link, a password
 *    reset) is refused at once: /auth routes ask `GET /auth/session-status` (one indexed query
 *    there); a page takes the answers to its own loaders' calls, which carry the same verdict, and
 *    asks only when they do not (page-session.ts, docs/decisions/049-session-confirmed-by-page-calls.md).
 *    SESSION_STATUS_CACHE_SECONDS (at most 30) keeps a live answer that long instead, and a session
 *    ended elsewhere then stops within that time (docs/decisions/042-scale-out.md). Concurrent
 *    requests of one session share one call.
 * A backend that cannot answer is no verdict: the session is kept, and asked about again soon.
 *
 * The backend's answer also carries the user's and organisation's names as they are now; pages
 * show those, not the token's, so a rename elsewhere shows at the next check. A rename renews the
 * renaming session (`POST /auth/session`), which forgets the answers kept for its organisation, so
 * on this instance every browser of that organisation shows the new names at its next request.
 */

import * as v from "valibot";
import {
  type SessionClaims,
  type SessionNames,
  type SessionUser,
  sessionStatusResponseSchema,
} from "../shared/contract/accounts.ts";
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

/** Who is signed in; the names the backend gave at its last check win over the token's. */
export function sessionUserOf(claims: SessionClaims, names?: SessionNames): SessionUser {
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
  /** Records what the backend said of the session on another call (a page's own call, page-session.ts). */
  heard(claims: SessionClaims, check: SessionCheck): void;
  /** What is known of the session without asking: ended here, or an answer still kept; else undefined. */
  known(claims: SessionClaims): SessionCheck | undefined;
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
      const names = v.safeParse(sessionStatusResponseSchema, await response.json().catch(() => undefined));
      return names.success ? { status: "live", names: names.output } : { status: "live" };
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

  const ended = (claims: SessionClaims) => {
    boundedSet(endedSessions, claims.sid, claims.exp);
    answers.delete(claims.sid);
  };

  const known = (claims: SessionClaims, now = nowSeconds()): SessionCheck | undefined => {
    if (endedHere(claims, now)) return { status: "ended" };
    const answer = answers.get(claims.sid);
    return answer && answer.until > now ? answer : undefined;
  };

  return {
    endedHere,
    known,
    ended,
    async check(token, claims, requestId) {
      const answer = known(claims);
      if (answer) return answer;
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
    heard(claims, check) {
      if (check.status === "ended") ended(claims);
      else if (check.status === "live") remember(claims, check);
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
