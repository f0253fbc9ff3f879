/**
 * Server-side sessions: one row per sign-in. A token is only as good as its row: revoking the
 * row (logout) ends every token of the session, and each check re-reads the user and the
 * organisation so that changes (a new name, a deleted user) take effect at once.
 */
import { SESSION_ABSOLUTE_LIFETIME_SECONDS } from "../../shared/constants.ts";
import type { Provider } from "../../shared/contract.ts";
import type { Db } from "../db/database.ts";
import { ACCOUNT_COLUMNS, type Account } from "./accounts.ts";
import {
  epochSeconds,
  InvalidSessionToken,
  type SessionIdentity,
  type SessionTokens,
} from "./session-tokens.ts";

export interface SessionContext extends Account {
  sid: string;
  provider: Provider;
  /** Seconds since the epoch of the sign-in that began the session. */
  authTime: number;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startSession(
  db: Db,
  session: { userId: string; provider: Provider; authTime: number },
): Promise<string> {
  const row = await db
    .insertInto("sessions")
    .values({
      user_id: session.userId,
      provider: session.provider,
      auth_time: new Date(session.authTime * 1000),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Idempotent: an already revoked session keeps its first revocation time. */
export async function revokeSession(db: Db, sid: string, userId: string): Promise<void> {
  if (!UUID_PATTERN.test(sid)) return;
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("id", "=", sid)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}

async function findActiveSession(db: Db, sid: string, userId: string): Promise<SessionContext | undefined> {
  if (!UUID_PATTERN.test(sid) || !UUID_PATTERN.test(userId)) return undefined;
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .innerJoin("organizations", "organizations.id", "users.org_id")
    .select(["sessions.id as sid", "sessions.provider", "sessions.auth_time", ...ACCOUNT_COLUMNS])
    .where("sessions.id", "=", sid)
    .where("sessions.user_id", "=", userId)
    .where("sessions.revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    sid: row.sid,
    provider: row.provider,
    authTime: epochSeconds(row.auth_time),
    user: { id: row.userId, email: row.email, name: row.name, role: row.role },
    org: { id: row.orgId, name: row.orgName },
  };
}

/**
 * The live session behind a token, or undefined when the token is invalid or expired, the session
 * is revoked or past its absolute lifetime, or its user is gone.
 */
export async function authenticateSession(
  db: Db,
  tokens: SessionTokens,
  token: string,
  now = epochSeconds(),
): Promise<SessionContext | undefined> {
  let claims: SessionIdentity;
  try {
    claims = await tokens.verify(token, now);
  } catch (error) {
    if (error instanceof InvalidSessionToken) return undefined;
    throw error;
  }
  const session = await findActiveSession(db, claims.sid, claims.sub);
  if (!session || now - session.authTime >= SESSION_ABSOLUTE_LIFETIME_SECONDS) return undefined;
  return session;
}

/** The claims a token of this session carries, from the current rows. */
export function sessionIdentity(session: SessionContext): SessionIdentity {
  return {
    sub: session.user.id,
    sid: session.sid,
    orgId: session.org.id,
    email: session.user.email,
    name: session.user.name,
    role: session.user.role,
    provider: session.provider,
    orgName: session.org.name,
    auth_time: session.authTime,
  };
}
