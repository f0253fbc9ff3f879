/**
 * Caps on open event streams (docs/decisions/032-event-stream-limits.md). A stream holds a socket
 * through the gateway and a listener here for as long as its page stays open, so one session, and
 * one organisation, may hold only so many at once: the next answers 429 with Retry-After until one
 * of them closes. Counted in this process, like the run changes the streams carry (review/queue/run-events.ts).
 */
import type { Response } from "express";
import { EVENT_STREAM_RETRY_AFTER_SECONDS } from "../../shared/constants.ts";
import { ERRORS } from "../../shared/contract/accounts.ts";
import type { ErrorBody } from "../../shared/contract/common.ts";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import { slotLimit } from "../../shared/node/slot-limit.ts";
import { sessionOf } from "../auth/require-session.ts";

export interface EventStreamLimits {
  perSession: number;
  perOrg: number;
}

/** Answers whether `res` may carry an event stream; if not, it has answered 429. */
export type EventStreamGate = (res: Response) => boolean;

function refuse(res: Response, message: string): void {
  res
    .status(429)
    .set({ "Retry-After": String(EVENT_STREAM_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" })
    .json({ error: "Too many requests", code: ERROR_CODES.tooManyStreams, message } satisfies ErrorBody);
}

/**
 * A gate for the streams of the session `res` answers: each takes a slot of its session and one of
 * its organisation, and gives both back when the response closes (the page left, or the stream ended).
 */
export function eventStreamGate(limits: EventStreamLimits): EventStreamGate {
  const sessions = slotLimit(limits.perSession);
  const orgs = slotLimit(limits.perOrg);
  return (res) => {
    const session = sessionOf(res);
    const releaseSession = sessions.take(session.sid);
    if (!releaseSession) {
      refuse(res, ERRORS.tooManyStreams.session);
      return false;
    }
    const releaseOrg = orgs.take(session.org.id);
    if (!releaseOrg) {
      releaseSession();
      refuse(res, ERRORS.tooManyStreams.organization);
      return false;
    }
    res.once("close", () => {
      releaseSession();
      releaseOrg();
    });
    return true;
  };
}
