/**
 * Accounts: the backend user behind a Firebase identity, and the organisation it belongs to.
 * The first sign-in of an identity creates both; later sign-ins find them again.
 */
import type { Provider } from "../../shared/contract.ts";
import { type Db, isUniqueViolation } from "../db/database.ts";

export interface Account {
  user: { id: string; email: string; name: string; role: string };
  org: { id: string; name: string };
}

export interface SignInIdentity {
  firebaseUid: string;
  /** Lower-case. */
  email: string;
  emailVerified: boolean;
  name: string;
  avatarUrl: string | null;
  provider: Provider;
}

/** Another Firebase identity already owns this e-mail address, and this one has not proved it. */
/** The columns that make an Account, for every query that loads one. */
export const ACCOUNT_COLUMNS = [
  "users.id as userId",
  "users.email",
  "users.name",
  "users.role",
  "organizations.id as orgId",
  "organizations.name as orgName",
] as const;

export class EmailTakenError extends Error {
  override name = "EmailTakenError";
}

function organizationNameFor(userName: string): string {
  return `${userName}'s organization`;
}

export async function signInAccount(
  db: Db,
  identity: SignInIdentity,
): Promise<Account & { created: boolean }> {
  try {
    return await findOrCreateAccount(db, identity);
  } catch (error) {
    // A concurrent first sign-in of the same identity won the insert: use what it created.
    if (isUniqueViolation(error)) return findOrCreateAccount(db, identity);
    throw error;
  }
}

async function findOrCreateAccount(
  db: Db,
  identity: SignInIdentity,
): Promise<Account & { created: boolean }> {
  const known = await findAccount(db, "firebase_uid", identity.firebaseUid);
  if (known) return { ...known, created: false };

  const sameEmail = await findAccount(db, "email", identity.email);
  if (sameEmail) {
    // The Firebase user was re-created (an emulator restart, an account reset): a verified
    // address proves it is the same person, so the account follows the new identity.
    if (!identity.emailVerified) throw new EmailTakenError("E-mail address already in use");
    await db
      .updateTable("users")
      .set({ firebase_uid: identity.firebaseUid })
      .where("id", "=", sameEmail.user.id)
      .execute();
    return { ...sameEmail, created: false };
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
    return { user, org, created: true };
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
  if (!row) return undefined;
  return {
    user: { id: row.userId, email: row.email, name: row.name, role: row.role },
    org: { id: row.orgId, name: row.orgName },
  };
}
