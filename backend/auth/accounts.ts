/**
 * Accounts: the backend user behind a Firebase identity, and the organisation it belongs to.
 *
 * Who may sign in to which account:
 * - Only an identity whose e-mail address its provider verified signs in at all, whatever the
 *   provider (password, GitHub, ...), and even when the account is already linked to that exact
 *   firebase_uid. Accounts are found by address, and an address nobody proved to own says nothing
 *   about who is signing in; a provider that stops vouching for the address (a GitHub user whose
 *   primary address is now an unverified one) stops the sign-ins with it too.
 * - An identity already linked to an account (users.firebase_uid) signs in to that account.
 * - A verified identity with the address of an account linked to another identity takes the
 *   account over: the verified address proves it is the same person (a Firebase user re-created
 *   after a reset, a second sign-in method). This re-link revokes every session of the account's
 *   user in the same transaction, so the previous identity's sessions end at once.
 * - Any other verified identity creates a user and an organisation of its own.
 */
import type { Provider } from "../../shared/contract.ts";
import { type Db, isUniqueViolation } from "../db/database.ts";
import { ACCOUNT_COLUMNS, type Account, accountFromRow } from "./account-rows.ts";
import { revokeUserSessions } from "./sessions.ts";

export type { Account } from "./account-rows.ts";

export interface SignInIdentity {
  firebaseUid: string;
  /** Lower-case. */
  email: string;
  emailVerified: boolean;
  /** Already tidy and bounded (names.ts). */
  name: string;
  avatarUrl: string | null;
  provider: Provider;
}

export interface SignedInAccount extends Account {
  /** This sign-in created the user and its organisation. */
  created: boolean;
  /** This sign-in moved the account to this identity, and revoked the user's sessions. */
  relinked: boolean;
}

/** The identity's address is not verified: it may neither create, take over nor use an account. */
export class EmailNotVerifiedError extends Error {
  override name = "EmailNotVerifiedError";
}

function organizationNameFor(userName: string): string {
  return `${userName}'s organization`;
}

export async function signInAccount(db: Db, identity: SignInIdentity): Promise<SignedInAccount> {
  if (!identity.emailVerified) throw new EmailNotVerifiedError("E-mail address not verified");
  try {
    return await findOrCreateAccount(db, identity);
  } catch (error) {
    // A concurrent first sign-in of the same identity won the insert: use what it created.
    if (isUniqueViolation(error)) return findOrCreateAccount(db, identity);
    throw error;
  }
}

async function findOrCreateAccount(db: Db, identity: SignInIdentity): Promise<SignedInAccount> {
  const known = await findAccount(db, "firebase_uid", identity.firebaseUid);
  if (known) return { ...known, created: false, relinked: false };

  const sameEmail = await findAccount(db, "email", identity.email);
  if (sameEmail) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ firebase_uid: identity.firebaseUid })
        .where("id", "=", sameEmail.user.id)
        .execute();
      await revokeUserSessions(trx, sameEmail.user.id);
    });
    return { ...sameEmail, created: false, relinked: true };
  }

  return db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({ name: organizationNameFor(identity.name) })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    const user = await trx
      .insertInto("users")
      .values({
        firebase_uid: identity.firebaseUid,
        email: identity.email,
        name: identity.name,
        role: "owner",
        org_id: org.id,
        provider: identity.provider,
        avatar_url: identity.avatarUrl,
      })
      .returning(["id", "email", "name", "role"])
      .executeTakeFirstOrThrow();
    return { user, org, created: true, relinked: false };
  });
}

async function findAccount(
  db: Db,
  column: "firebase_uid" | "email",
  value: string,
): Promise<Account | undefined> {
  const row = await db
    .selectFrom("users")
    .innerJoin("organizations", "organizations.id", "users.org_id")
    .select(ACCOUNT_COLUMNS)
    .where(`users.${column}`, "=", value)
    .executeTakeFirst();
  return row && accountFromRow(row);
}
