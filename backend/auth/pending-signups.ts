/**
 * Signup profiles waiting for their address to be verified (docs/security.md: an unverified address
 * creates no account). POST /auth/signup keeps one per Firebase identity; that identity's first
 * verified sign-in creates the account from it (accounts.ts deletes it then).
 */
import type { Db } from "../db/database.ts";

export interface PendingSignup {
  firebaseUid: string;
  /** Lower-case. */
  email: string;
  /** Tidy and bounded (names.ts). */
  name: string;
  company: string;
  source: string;
}

/** Keeps the profile; a second signup of the same identity replaces the first. */
export async function savePendingSignup(db: Db, signup: PendingSignup): Promise<void> {
  const values = { email: signup.email, name: signup.name, company: signup.company, source: signup.source };
  await db
    .insertInto("pending_signups")
    .values({ firebase_uid: signup.firebaseUid, ...values })
    .onConflict((conflict) => conflict.column("firebase_uid").doUpdateSet(values))
    .execute();
}

export async function findPendingSignup(
  db: Db,
  firebaseUid: string,
): Promise<Pick<PendingSignup, "name" | "company"> | undefined> {
  return db
    .selectFrom("pending_signups")
    .select(["name", "company"])
    .where("firebase_uid", "=", firebaseUid)
    .executeTakeFirst();
}
