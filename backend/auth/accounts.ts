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
 * - Any other verified identity creates a user and an organisation of its own, when the caller
 *   says how to name them: a sign-in with GitHub never creates one (the user signs up first), a
 *   password identity's first verified sign-in does, from its pending signup profile if it has one.
 */

import { DEFAULT_TRIAL_DAYS, ORG_OWNER_ROLE } from "../../shared/constants.ts";
import type { Provider } from "../../shared/contract/accounts.ts";
import { systemClock } from "../billing/clock.ts";
import { startTrial, type TrialTerms } from "../billing/subscriptions.ts";
import { type Db, isUniqueViolation } from "../db/database.ts";
import { ACCOUNT_COLUMNS, type Account, accountFromRow } from "./account-rows.ts";
import { revokeUserSessions } from "./sessions.ts";

export type { Account } from "./account-rows.ts";

export interface SignInIdentity {
  firebaseUid: string;
  /** Lower-case. */
  email: string;
  emailVerified: boolean;
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

/** No account for this identity, and the caller did not ask to create one. */
export class NoAccountError extends Error {
  override name = "NoAccountError";
}

/** The names a new account gets: its user's, and its organisation's. Both tidy and bounded. */
export interface NewAccount {
  name: string;
  orgName: string;
}

/** The organisation a user gets when nobody named one: "<name>'s organization". */
export function organizationNameFor(userName: string): string {
  return `${userName}'s organization`;
}

/**
 * Signs the identity in to its account. Without one, `newAccount` says how to create it; when it
 * is undefined, NoAccountError. A new organisation starts its Pro trial on `trial`'s terms.
 */
export async function signInAccount(
  db: Db,
  identity: SignInIdentity,
  newAccount: NewAccount | undefined,
  trial: TrialTerms = { clock: systemClock, days: DEFAULT_TRIAL_DAYS },
): Promise<SignedInAccount> {
  if (!identity.emailVerified) throw new EmailNotVerifiedError("E-mail address not verified");
  try {
    return await findOrCreateAccount(db, identity, newAccount, trial);
  } catch (error) {
    // A concurrent first sign-in of the same identity won the insert: use what it created.
    if (isUniqueViolation(error)) return findOrCreateAccount(db, identity, newAccount, trial);
    throw error;
  }
}

async function findOrCreateAccount(
  db: Db,
  identity: SignInIdentity,
  newAccount: NewAccount | undefined,
  trial: TrialTerms,
): Promise<SignedInAccount> {
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

  if (!newAccount) throw new NoAccountError("No account for this identity");
  return db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({ name: newAccount.orgName })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    const user = await trx
      .insertInto("users")
      .values({
        firebase_uid: identity.firebaseUid,
        email: identity.email,
        name: newAccount.name,
        role: ORG_OWNER_ROLE,
        org_id: org.id,
        provider: identity.provider,
        avatar_url: identity.avatarUrl,
      })
      .returning(["id", "email", "name", "role"])
      .executeTakeFirstOrThrow();
    await startTrial(trx, org.id, trial);
    // The account now exists: a signup profile still waiting for this identity has served.
    await trx.deleteFrom("pending_signups").where("firebase_uid", "=", identity.firebaseUid).execute();
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

/** The account with this address, and the Firebase identity it is linked to. */
export async function findAccountByEmail(
  db: Db,
  email: string,
): Promise<(Account & { firebaseUid: string }) | undefined> {
  const row = await db
    .selectFrom("users")
    .innerJoin("organizations", "organizations.id", "users.org_id")
    .select([...ACCOUNT_COLUMNS, "users.firebase_uid"])
    .where("users.email", "=", email)
    .executeTakeFirst();
  return row && { ...accountFromRow(row), firebaseUid: row.firebase_uid };
}
