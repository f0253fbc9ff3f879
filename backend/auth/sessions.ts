/**
 * Server-side sessions: one row per sign-in. A token is only as good as its row: revoking the
 * row (logout) ends every token of the session, and each check re-reads the user and the
 * organisation so that changes (a new name, a deleted user) take effect at once.
 */

import { sql } from "kysely";
import { NAME_MAX, ORG_NAME_MAX, SESSION_ABSOLUTE_LIFETIME_SECONDS } from "../../shared/constants.ts";
import type { Provider } from "../../shared/contract/accounts.ts";
import type { Db } from "../db/database.ts";
import { preparedRead } from "../db/prepared-statements.ts";
import { cachedRead, type ReadCacheKind, type ReadVersion } from "../db/read-cache.ts";
import { ACCOUNT_COLUMNS, type Account, accountFromRow } from "./account-rows.ts";
import { capLength } from "./names.ts";
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
  /** The Firebase identity the user is linked to now. */
  firebaseUid: string;
  /**
   * The organisation's read version, read in the same statement as the session: what the call's
   * cached reads on a Postgres server are checked against (db/read-cache.ts). Unused on embedded
   * PGlite, whose caches hear every write, so it may be older there.
   */
  readVersion: ReadVersion;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account was linked to another identity between the sign-in's lookup and its session. */
export class AccountRelinkedError extends Error {
  override name = "AccountRelinkedError";
}

interface NewSession {
  userId: string;
  provider: Provider;
  authTime: number;
  /**
   * The identity signing in. When given, the session is only started while the user is still
   * linked to it: a re-link (accounts.ts) that commits in between would otherwise leave the
   * previous identity a live session it revoked everything else of. Throws AccountRelinkedError.
   */
  firebaseUid?: string;
}

export async function startSession(db: Db, session: NewSession): Promise<string> {
  const { firebaseUid } = session;
  if (firebaseUid === undefined) return insertSession(db, session);
  return db.transaction().execute(async (trx) => {
    // The row lock orders this with a re-link's update: either it sees the new link and refuses,
    // or the re-link waits for this session and then revokes it with the others.
    const linked = await trx
      .selectFrom("users")
      .select("id")
      .where("id", "=", session.userId)
      .where("firebase_uid", "=", firebaseUid)
      .forUpdate()
      .executeTakeFirst();
    if (!linked) throw new AccountRelinkedError("The account is linked to another identity now");
    return insertSession(trx, session);
  });
}

async function insertSession(db: Db, session: NewSession): Promise<string> {
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

/** Ends every live session of a user (identity re-linked, disabled or deleted at Firebase). */
export async function revokeUserSessions(db: Db, userId: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}

/**
 * On embedded PGlite, live sessions are answered from memory until a write to one of the tables
 * they are read from: a logout, a revocation or a new name takes effect on the next call.
 */
export const LIVE_SESSIONS: ReadCacheKind = { tables: ["sessions", "users", "organizations"] };

async function findActiveSession(db: Db, sid: string, userId: string): Promise<SessionContext | undefined> {
  if (!UUID_PATTERN.test(sid) || !UUID_PATTERN.test(userId)) return undefined;
  return cachedRead(db, LIVE_SESSIONS, `${sid}:${userId}`, () => readActiveSession(db, sid, userId));
}

/**
 * The session with its user, organisation and the organisation's read version, by primary keys:
 * the statement every /api call runs, so a Postgres server plans it once per connection.
 */
const readSessionRow = preparedRead("session_check", ["sid", "userId"], (db, { sid, userId }) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .innerJoin("organizations", "organizations.id", "users.org_id")
    .leftJoin("read_versions", "read_versions.org_id", "organizations.id")
    .select([
      "sessions.id as sid",
      "sessions.provider",
      "sessions.auth_time",
      "users.firebase_uid",
      ...ACCOUNT_COLUMNS,
      // No row yet: nothing cached of the organisation was ever written.
      sql<string>`coalesce(read_versions.version, 0)::text`.as("read_version"),
    ])
    .where("sessions.id", "=", sid)
    .where("sessions.user_id", "=", userId)
    .where("sessions.revoked_at", "is", null),
);

async function readActiveSession(db: Db, sid: string, userId: string): Promise<SessionContext | undefined> {
  const row = await readSessionRow(db, { sid, userId });
  if (!row) return undefined;
  return {
    ...accountFromRow(row),
    sid: row.sid,
    provider: row.provider,
    authTime: epochSeconds(row.auth_time),
    firebaseUid: row.firebase_uid,
    readVersion: { orgId: row.orgId, version: row.read_version },
  };
}

/**
 * The live session behind a token, or undefined when the token is invalid or expired, the session
 * is revoked or past its absolute lifetime, or its user is gone. One query, by primary keys, which
 * also reads the organisation's read version (none on embedded PGlite while the session's rows are
 * unchanged: db/read-cache.ts).
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

/**
 * The claims a token of this session carries, from the current rows. Names are cut to the
 * contract's bounds (rows written before there were bounds may be longer), so that every token
 * minted parses with `sessionClaimsSchema`.
 */
export function sessionIdentity(
  session: Omit<SessionContext, "firebaseUid" | "readVersion">,
): SessionIdentity {
  return {
    sub: session.user.id,
    sid: session.sid,
    orgId: session.org.id,
    email: session.user.email,
    name: capLength(session.user.name, NAME_MAX),
    role: session.user.role,
    provider: session.provider,
    orgName: capLength(session.org.name, ORG_NAME_MAX),
    auth_time: session.authTime,
  };
}
