/**
 * An account with a live session on a test backend, made straight in its database (no Firebase):
 * for the storage tests of /api routes. tests/integration/backend-auth.test.ts covers the real
 * sign-in through the emulator.
 */
import type { Backend } from "../../backend/app.ts";
import { signInAccount } from "../../backend/auth/accounts.ts";
import { epochSeconds } from "../../backend/auth/session-tokens.ts";
import { sessionIdentity, startSession } from "../../backend/auth/sessions.ts";
import type { Provider } from "../../shared/contract/accounts.ts";

export async function signedInAccount(
  backend: Pick<Backend, "db" | "tokens" | "trial">,
  name: string,
  provider: Provider = "email",
) {
  const account = await signInAccount(
    backend.db,
    {
      firebaseUid: `uid-${name}`,
      email: `${name}@example.com`,
      emailVerified: true,
      avatarUrl: null,
      provider,
    },
    { name, orgName: `${name}'s organization` },
    backend.trial,
  );
  /** A live session of the account, and its token: each call another one, as another device's sign-in. */
  const newSession = async () => {
    const authTime = epochSeconds();
    const sid = await startSession(backend.db, { userId: account.user.id, provider, authTime });
    return backend.tokens.mint(sessionIdentity({ ...account, sid, provider, authTime }));
  };
  return { token: await newSession(), userId: account.user.id, orgId: account.org.id, newSession };
}

/**
 * A member added to an existing organisation (role "user", the default for anyone but the person
 * who created it), with a live session: for tests of what only the owner may do.
 */
export async function signedInMember(backend: Backend, orgId: string, name: string) {
  const provider: Provider = "email";
  const user = await backend.db
    .insertInto("users")
    .values({ firebase_uid: `uid-${name}`, email: `${name}@example.com`, name, org_id: orgId, provider })
    .returning(["id", "email", "name", "role"])
    .executeTakeFirstOrThrow();
  const org = await backend.db
    .selectFrom("organizations")
    .select(["id", "name"])
    .where("id", "=", orgId)
    .executeTakeFirstOrThrow();
  const authTime = epochSeconds();
  const sid = await startSession(backend.db, { userId: user.id, provider, authTime });
  const token = await backend.tokens.mint(sessionIdentity({ user, org, sid, provider, authTime }));
  return { token, userId: user.id, orgId, role: user.role };
}
