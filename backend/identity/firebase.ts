/**
 * Identity adapter: checks Firebase ID tokens and looks users up with firebase-admin. Against the
 * Auth emulator (FIREBASE_AUTH_EMULATOR_HOST) firebase-admin accepts the emulator's unsigned tokens;
 * against a real project it checks Google's signatures. Either way every ID token is checked with
 * `checkRevoked`, which asks Firebase whether the user still exists, is enabled, and has not had
 * its tokens revoked. Each backend gets its own named firebase-admin app, so several can share a
 * process.
 */
import { randomUUID } from "node:crypto";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import type { BackendConfig } from "../config.ts";

export interface VerifiedIdentity {
  uid: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  picture: string | undefined;
  /** Firebase's `sign_in_provider`: "password", "github.com", ... */
  signInProvider: string;
}

/** What the identity provider says about a user now. */
export interface IdentityUser {
  uid: string;
  disabled: boolean;
}

export interface IdentityVerifier {
  /**
   * Rejects with IdentityError when the token is not acceptable: invalid or expired, revoked, its
   * user disabled or gone; or when the provider cannot be reached ("unavailable").
   */
  verifyIdToken(idToken: string): Promise<VerifiedIdentity>;
  /**
   * The user as the provider knows it now, or undefined when it does not exist (deleted). Rejects
   * with IdentityError "unavailable" when the provider cannot be reached.
   */
  getUser(uid: string): Promise<IdentityUser | undefined>;
  close(): Promise<void>;
}

export class IdentityError extends Error {
  override name = "IdentityError";
  readonly reason: "invalid" | "revoked" | "disabled" | "unavailable";

  constructor(reason: IdentityError["reason"], options?: ErrorOptions) {
    super(`Identity refused: ${reason}`, options);
    this.reason = reason;
  }
}

/** firebase-admin error codes that mean "this token does not prove who the caller is". */
const INVALID_TOKEN_CODES = new Set([
  "auth/argument-error",
  "auth/invalid-id-token",
  "auth/id-token-expired",
  "auth/user-not-found",
]);

/**
 * firebase-admin error codes that mean "Firebase could not answer": the network failed or timed
 * out, or Firebase answered with a server error. Anything else unexpected (a missing credential,
 * a permission) is a configuration fault and stays an error.
 */
const UNAVAILABLE_CODES = new Set(["app/network-error", "app/network-timeout", "auth/internal-error"]);

/** firebase-admin error codes of a user lookup that mean "there is no such user". */
const NO_SUCH_USER_CODES = new Set(["auth/user-not-found", "auth/invalid-uid"]);

function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
}

/** The reason a firebase-admin failure stands for, or undefined when it is not one we expect. */
export function classifyIdentityError(error: unknown): IdentityError["reason"] | undefined {
  const code = errorCode(error);
  if (INVALID_TOKEN_CODES.has(code)) return "invalid";
  if (code === "auth/id-token-revoked") return "revoked";
  if (code === "auth/user-disabled") return "disabled";
  if (UNAVAILABLE_CODES.has(code)) return "unavailable";
  return undefined;
}

function identityError(error: unknown): unknown {
  const reason = classifyIdentityError(error);
  return reason ? new IdentityError(reason, { cause: error }) : error;
}

export function createFirebaseIdentity(firebase: BackendConfig["firebase"]): IdentityVerifier {
  // firebase-admin reads the emulator address from this variable only, when an app first calls it.
  if (firebase.authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = firebase.authEmulatorHost;
  const app = initializeApp({ projectId: firebase.projectId }, `argus-backend-${randomUUID()}`);
  const auth = getAuth(app);

  return {
    async verifyIdToken(idToken) {
      try {
        // checkRevoked: also refuse a disabled user (auth/user-disabled) and a token issued before
        // the user's tokens were revoked (auth/id-token-revoked), at the cost of one lookup.
        const decoded = await auth.verifyIdToken(idToken, true);
        return {
          uid: decoded.uid,
          email: decoded.email,
          emailVerified: decoded.email_verified === true,
          name: typeof decoded.name === "string" ? decoded.name : undefined,
          picture: decoded.picture,
          signInProvider: decoded.firebase.sign_in_provider,
        };
      } catch (error) {
        throw identityError(error);
      }
    },

    async getUser(uid) {
      try {
        const user = await auth.getUser(uid);
        return { uid: user.uid, disabled: user.disabled };
      } catch (error) {
        // Deleted at Firebase (or a uid no user can have): there is no such user.
        if (NO_SUCH_USER_CODES.has(errorCode(error))) return undefined;
        throw identityError(error);
      }
    },

    close: () => deleteApp(app),
  };
}
