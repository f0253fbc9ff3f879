/**
 * A page's session confirmed by the page's own calls to the backend, without a session-status call
 * of its own (docs/decisions/049-session-confirmed-by-page-calls.md). The backend checks the session
 * of every /api call: it answers 401 once the session has ended, and otherwise puts the session's
 * names on the answer (SESSION_NAMES_HEADER). So the first of a render's loader calls to answer
 * either way is the backend's verdict, as current as `GET /auth/session-status` would have been.
 * Only when the loaders make no call, or none answers with a verdict (the backend failed), or none
 * within CALLS_VERDICT_WAIT_MS, is the status asked, as before. The loaders that show who is signed in await the verdict, so a session
 * ended elsewhere is still refused (a redirect to sign in, the cookie cleared) before any of the
 * page is sent.
 */
import type { ServerResponse } from "node:http";
import { setImmediate as afterLoadersStarted } from "node:timers/promises";
import { SESSION_NAMES_HEADER, type SessionUser, sessionNamesOfHeader } from "../shared/contract/accounts.ts";
import type { SessionConfirmation } from "../shared/gateway-context.ts";
import type { CallFacts, Session, SessionCookie } from "./session.ts";
import { type SessionCheck, type SessionStatusChecker, sessionUserOf } from "./session-status.ts";

export interface PageSessionDeps {
  status: SessionStatusChecker;
  cookie: SessionCookie;
}

/** Whether a call went to the backend's API, whose 401 means the session has ended (decision 044). */
const isApiCall = (input: string | URL | Request) =>
  new URL(input instanceof Request ? input.url : input).pathname.startsWith("/api/");

/**
 * How long a page waits for its calls to tell before it asks the status as well. A cached read
 * answers within a few milliseconds, which saves the status call; a page whose calls are slow still
 * sends its shell 50 ms and a status call later, not when its data comes (the shell streams ahead
 * of slow data: tests/integration/gateway-ssr.test.ts).
 */
export const CALLS_VERDICT_WAIT_MS = 50;

/**
 * The confirmation of one page request's session. `vouched`: the backend has just vouched for it
 * (a refresh it granted), so nothing needs asking.
 */
export function pageSessionConfirmation(
  deps: PageSessionDeps,
  call: CallFacts,
  res: ServerResponse,
  session: Session,
  vouched: boolean,
): SessionConfirmation {
  const { status, cookie } = deps;
  const { token, claims } = session;
  let verdict: SessionCheck | undefined = vouched ? { status: "live" } : status.known(claims);
  let decide: (check: SessionCheck) => void = () => {};
  const decided = new Promise<SessionCheck>((resolve) => {
    decide = resolve;
  });
  let callsInFlight = 0;
  let loadersStarted = false;
  let asked = false;

  let waitTimer: NodeJS.Timeout | undefined;

  const settle = (check: SessionCheck) => {
    if (verdict) return;
    verdict = check;
    clearTimeout(waitTimer);
    decide(check);
  };

  const ask = () => {
    if (verdict || asked) return;
    asked = true;
    status.check(token, claims, call.id).then(settle);
  };

  /** No call left that could tell: ask the backend, as a page without calls always does. */
  const askWhenNothingCanTell = () => {
    if (loadersStarted && callsInFlight === 0) ask();
  };

  let cookieCleared = false;
  const clearCookie = () => {
    if (cookieCleared || res.headersSent) return;
    cookieCleared = true;
    cookie.clear(res, call.secure);
  };

  let confirmed: Promise<SessionUser | null> | undefined;

  return {
    observe(send) {
      return async (input, init) => {
        callsInFlight += 1;
        try {
          const answer = await send(input, init);
          if (answer.status === 401 && isApiCall(input)) {
            // Even after another call said live: the session has ended since, so it ends here.
            status.heard(claims, { status: "ended" });
            clearCookie();
            settle({ status: "ended" });
          } else if (!verdict) {
            const names = sessionNamesOfHeader(answer.headers.get(SESSION_NAMES_HEADER));
            if (names) {
              status.heard(claims, { status: "live", names });
              settle({ status: "live", names });
            }
          }
          return answer;
        } finally {
          callsInFlight -= 1;
          askWhenNothingCanTell();
        }
      };
    },
    confirmed() {
      confirmed ??= (async () => {
        if (!verdict) {
          // Every loader of the request is called in one turn (they start their calls at once): after
          // it, no call in flight means none is coming that could tell.
          await afterLoadersStarted();
          loadersStarted = true;
          askWhenNothingCanTell();
          if (!verdict) waitTimer = setTimeout(ask, CALLS_VERDICT_WAIT_MS).unref();
        }
        const check = verdict ?? (await decided);
        if (check.status !== "ended") return sessionUserOf(claims, check.names);
        clearCookie();
        return null;
      })();
      return confirmed;
    },
  };
}
