/**
 * An identity provider in memory, for backend tests that run without the Firebase Auth emulator
 * (tests/integration/backend-auth.test.ts uses the real one). Knows users by uid; a test can
 * disable or remove one, or make the provider unreachable. It knows no addresses, so it sends no
 * verification or reset links (tests/integration/backend-account-flows.test.ts uses the emulator).
 */
import {
  type Identity,
  IdentityError,
  type IdentityUser,
  PasswordResetError,
  type VerifiedIdentity,
} from "../../backend/identity/firebase.ts";

export interface FakeIdentity extends Identity {
  users: Map<string, IdentityUser>;
  /** While true every call fails as if Firebase could not be reached. */
  unreachable: boolean;
  /** Uids asked for with getUser, in order. */
  lookups: string[];
  /** Adds (or replaces) an enabled user. */
  addUser(uid: string, changes?: Partial<IdentityUser>): void;
}

export function createFakeIdentity(): FakeIdentity {
  const fake: FakeIdentity = {
    users: new Map(),
    unreachable: false,
    lookups: [],
    addUser(uid, changes = {}) {
      fake.users.set(uid, { uid, disabled: false, ...changes });
    },
    async verifyIdToken(): Promise<VerifiedIdentity> {
      if (fake.unreachable) throw new IdentityError("unavailable");
      // Tests without the emulator create sessions directly; no ID token is ever valid here.
      throw new IdentityError("invalid");
    },
    async getUser(uid) {
      fake.lookups.push(uid);
      if (fake.unreachable) throw new IdentityError("unavailable");
      return fake.users.get(uid);
    },
    async findUserByEmail() {
      if (fake.unreachable) throw new IdentityError("unavailable");
      return undefined;
    },
    async actionLink() {
      throw new Error("The fake identity provider has no users with addresses");
    },
    async resetPassword() {
      if (fake.unreachable) throw new IdentityError("unavailable");
      throw new PasswordResetError("invalid-code");
    },
    async checkResetCode() {
      if (fake.unreachable) throw new IdentityError("unavailable");
      throw new PasswordResetError("invalid-code");
    },
    async revokeTokens() {},
    async close() {},
  };
  return fake;
}
