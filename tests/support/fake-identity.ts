/**
 * An identity provider in memory, for backend tests that run without the Firebase Auth emulator
 * (tests/integration/backend-auth.test.ts uses the real one). Knows users by uid; a test can
 * disable or remove one, or make the provider unreachable.
 */
import {
  IdentityError,
  type IdentityUser,
  type IdentityVerifier,
  type VerifiedIdentity,
} from "../../backend/identity/firebase.ts";

export interface FakeIdentity extends IdentityVerifier {
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
    async close() {},
  };
  return fake;
}
