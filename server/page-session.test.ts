/**
 * How a page's own calls confirm its session (page-session.ts): which answer decides, when the
 * status is asked after all, and what an ended session leaves behind. The whole gateway with pages is
 * in tests/integration/gateway-page-session.test.ts.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  SESSION_NAMES_HEADER,
  type SessionClaims,
  type SessionNames,
  sessionNamesHeaderValue,
} from "../shared/contract/accounts.ts";
import { CALLS_VERDICT_WAIT_MS, pageSessionConfirmation } from "./page-session.ts";
import type { Session, SessionCookie } from "./session.ts";
import type { SessionCheck, SessionStatusChecker } from "./session-status.ts";

const CLAIMS: SessionClaims = {
  sub: "user-1",
  sid: "session-1",
  orgId: "org-1",
  email: "ada@example.com",
  name: "Ada Lovelace",
  role: "owner",
  provider: "email",
  orgName: "Analytical Engines",
  iat: 0,
  exp: 2_000_000_000,
  auth_time: 0,
};
const SESSION: Session = {
  token: "token",
  claims: CLAIMS,
  user: {
    id: CLAIMS.sub,
    email: CLAIMS.email,
    name: CLAIMS.name,
    role: CLAIMS.role,
    provider: CLAIMS.provider,
    orgName: CLAIMS.orgName,
    orgId: CLAIMS.orgId,
  },
};
const RENAMED: SessionNames = { name: "Ada King", orgName: "Difference Engines" };

/** A status checker that answers `asked` when asked, and records what it hears. */
function checker(asked: SessionCheck = { status: "live", names: RENAMED }, known?: SessionCheck) {
  const heard: SessionCheck[] = [];
  let checks = 0;
  const status: SessionStatusChecker = {
    check: async () => {
      checks += 1;
      return asked;
    },
    ended: () => {},
    endedHere: () => false,
    live: () => {},
    heard: (_claims, check) => {
      heard.push(check);
    },
    known: () => known,
    forgetOrganization: () => {},
  };
  return { status, heard, checks: () => checks };
}

function cookieJar() {
  const cleared: boolean[] = [];
  const cookie: SessionCookie = { set: () => {}, clear: () => cleared.push(true) };
  return { cookie, cleared };
}

const response = () => new ServerResponse(new IncomingMessage(new Socket()));

/** A backend call answering `status`, with the session's names when `names` is given. */
function answering(status: number, names?: SessionNames): typeof fetch {
  return async () =>
    new Response("{}", {
      status,
      headers: names ? { [SESSION_NAMES_HEADER]: sessionNamesHeaderValue(names) } : {},
    });
}

/** A call held until `release` is called. */
function held(status: number, names?: SessionNames) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const send: typeof fetch = async (input, init) => {
    await gate;
    return answering(status, names)(input, init);
  };
  return { send, release };
}

const setup = (status = checker(), vouched = false) => {
  const jar = cookieJar();
  const confirmation = pageSessionConfirmation(
    { status: status.status, cookie: jar.cookie },
    { id: "req-1", secure: false },
    response(),
    SESSION,
    vouched,
  );
  return { confirmation, status, ...jar };
};

const API = "http://backend.test/api/projects";

describe("a page's session, confirmed by its own calls", () => {
  it("is live with the names of a call's answer, and asks nothing", async () => {
    const { confirmation, status, cleared } = setup();
    const call = confirmation.observe(answering(200, RENAMED))(API);
    const user = await confirmation.confirmed();
    await call;
    expect(user).toEqual({ ...SESSION.user, ...RENAMED });
    expect(status.checks()).toBe(0);
    expect(status.heard).toEqual([{ status: "live", names: RENAMED }]);
    expect(cleared).toEqual([]);
  });

  it("has ended when a call answers 401: null, the cookie cleared once, and remembered", async () => {
    const { confirmation, status, cleared } = setup();
    await confirmation.observe(answering(401))(API);
    expect(await confirmation.confirmed()).toBeNull();
    expect(await confirmation.confirmed()).toBeNull();
    expect(cleared).toEqual([true]);
    expect(status.heard).toEqual([{ status: "ended" }]);
    expect(status.checks()).toBe(0);
  });

  it("takes the first call to answer, even when it is not the first one made", async () => {
    const { confirmation, status } = setup();
    const slow = held(200, { name: "Slow", orgName: "Slow" });
    const slowCall = confirmation.observe(slow.send)(API);
    const fastCall = confirmation.observe(answering(200, RENAMED))(API);
    expect(await confirmation.confirmed()).toEqual({ ...SESSION.user, ...RENAMED });
    slow.release();
    await Promise.all([slowCall, fastCall]);
    expect(status.checks()).toBe(0);
  });

  it("waits for a call still in flight rather than ask", async () => {
    const { confirmation, status } = setup();
    const call = held(401);
    const pending = confirmation.observe(call.send)(API);
    const confirmed = confirmation.confirmed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(status.checks()).toBe(0);
    call.release();
    await pending;
    expect(await confirmed).toBeNull();
    expect(status.checks()).toBe(0);
  });

  it("asks the status as well when no call has told in time, and takes whichever tells first", async () => {
    const { confirmation, status } = setup(checker({ status: "ended" }));
    const hung = held(200, RENAMED);
    const pending = confirmation.observe(hung.send)(API);
    const started = Date.now();
    expect(await confirmation.confirmed()).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(CALLS_VERDICT_WAIT_MS - 5);
    expect(status.checks()).toBe(1);
    hung.release();
    await pending;
    expect(await confirmation.confirmed()).toBeNull();
  });

  it("asks the status when the page makes no call", async () => {
    const { confirmation, status } = setup(checker({ status: "ended" }));
    expect(await confirmation.confirmed()).toBeNull();
    expect(status.checks()).toBe(1);
  });

  it("asks the status when no call's answer tells (a failure without the names, an error, a 401 outside /api)", async () => {
    const { confirmation, status } = setup();
    const failing: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    const calls = [
      confirmation.observe(answering(503))(API),
      confirmation
        .observe(failing)(API)
        .catch(() => undefined),
      confirmation.observe(answering(401))("http://backend.test/auth/refresh"),
    ];
    const user = await confirmation.confirmed();
    await Promise.all(calls);
    expect(user).toEqual({ ...SESSION.user, ...RENAMED });
    expect(status.checks()).toBe(1);
  });

  it("keeps the session with the token's names when the status cannot be had either", async () => {
    const { confirmation, cleared } = setup(checker({ status: "unknown" }));
    expect(await confirmation.confirmed()).toEqual(SESSION.user);
    expect(cleared).toEqual([]);
  });

  it("needs nothing when the backend has just vouched (a refresh) or an answer is still kept", async () => {
    const vouched = setup(checker(), true);
    expect(await vouched.confirmation.confirmed()).toEqual(SESSION.user);
    expect(vouched.status.checks()).toBe(0);

    const kept = setup(checker(undefined, { status: "live", names: RENAMED }));
    expect(await kept.confirmation.confirmed()).toEqual({ ...SESSION.user, ...RENAMED });
    expect(kept.status.checks()).toBe(0);
  });

  it("still ends the session here when a later call answers 401 after another said live", async () => {
    const { confirmation, status, cleared } = setup();
    await confirmation.observe(answering(200, RENAMED))(API);
    expect(await confirmation.confirmed()).not.toBeNull();
    await confirmation.observe(answering(401))(API);
    expect(status.heard.at(-1)).toEqual({ status: "ended" });
    expect(cleared).toEqual([true]);
  });
});
