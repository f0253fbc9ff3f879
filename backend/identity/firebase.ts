/**
 * Identity adapter: checks Firebase ID tokens and looks users up with firebase-admin. Against the
 * Auth emulator (FIREBASE_AUTH_EMULATOR_HOST) firebase-admin accepts the emulator's unsigned tokens;
 * against a real project it checks Google's signatures. Either way every ID token is checked with
 * `checkRevoked`, which asks Firebase whether the user still exists, is enabled, and has not had
 * its tokens revoked. Each backend gets its own named firebase-admin app, so several can share a
 * process. Password resets are applied through the Identity Toolkit REST API, which firebase-admin
 * does not wrap.
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
  /** The user's id at that provider (GitHub's numeric user id, as a string), when there is one. */
  providerUserId: string | undefined;
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

/** A Firebase user as the account flows (verification, reset) need it. */
export interface IdentityAccount {
  uid: string;
  emailVerified: boolean;
  disabled: boolean;
  /** "password", "github.com", ... */
  providerIds: string[];
}

/** The Firebase action an out-of-band link carries: its `mode` query parameter. */
export type ActionMode = "verifyEmail" | "resetPassword";

/** The identity provider with the account actions of sign-up and password reset. */
export interface Identity extends IdentityVerifier {
  /** The user with this address, or undefined. Rejects with IdentityError "unavailable". */
  findUserByEmail(email: string): Promise<IdentityAccount | undefined>;
  /** Firebase's own action link for this user; the app takes its mode and oobCode (mail/account-mail.ts). */
  actionLink(mode: ActionMode, email: string): Promise<string>;
  /**
   * Applies a password-reset code with a new password; resolves with the account's address.
   * Rejects with PasswordResetError for a bad code or password, IdentityError otherwise.
   */
  resetPassword(oobCode: string, newPassword: string): Promise<string>;
  /**
   * Checks a password-reset code without using it. Rejects with PasswordResetError "invalid-code"
   * for a code that is used, expired, unknown or not a reset's; IdentityError otherwise.
   */
  checkResetCode(oobCode: string): Promise<void>;
  /** Ends every Firebase session of the user: ID tokens issued before now count as revoked. */
  revokeTokens(uid: string): Promise<void>;
}

/** A password reset the identity provider refused because of what the user sent. */
export class PasswordResetError extends Error {
  override name = "PasswordResetError";
  readonly reason: "invalid-code" | "weak-password";

  constructor(reason: PasswordResetError["reason"]) {
    super(`Password reset refused: ${reason}`);
    this.reason = reason;
  }
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

/** How long a call to the Identity Toolkit REST API may take. */
const REST_TIMEOUT_MS = 10_000;

/** Identity Toolkit error messages ("INVALID_OOB_CODE", "WEAK_PASSWORD : ...") that are the user's doing. */
function passwordResetRefusal(message: string): PasswordResetError | undefined {
  if (/^(INVALID_OOB_CODE|EXPIRED_OOB_CODE)\b/.test(message)) return new PasswordResetError("invalid-code");
  if (/^WEAK_PASSWORD\b/.test(message)) return new PasswordResetError("weak-password");
  return undefined;
}

/**
 * accounts:resetPassword of the Identity Toolkit REST API: the emulator's locally (which takes any
 * key), Google's otherwise, with the project's web API key. Without `newPassword` it only checks
 * the code, and answers its request type.
 */
async function applyPasswordReset(
  firebase: BackendConfig["firebase"],
  oobCode: string,
  newPassword?: string,
): Promise<{ email: string; requestType?: string }> {
  const base = firebase.authEmulatorHost
    ? `http://${firebase.authEmulatorHost}/identitytoolkit.googleapis.com`
    : "https://identitytoolkit.googleapis.com";
  const key = firebase.apiKey ?? (firebase.authEmulatorHost ? "emulator" : undefined);
  if (!key) throw new Error("FIREBASE_API_KEY is not set: password resets cannot be applied");
  let response: Response;
  try {
    response = await fetch(`${base}/v1/accounts:resetPassword?key=${encodeURIComponent(key)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ oobCode, newPassword }),
      signal: AbortSignal.timeout(REST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new IdentityError("unavailable", { cause: error });
  }
  const body = (await response.json().catch(() => ({}))) as {
    email?: string;
    requestType?: string;
    error?: { message?: string };
  };
  if (response.ok && typeof body.email === "string") {
    return { email: body.email, ...(body.requestType ? { requestType: body.requestType } : {}) };
  }
  const message = body.error?.message ?? "";
  const refusal = passwordResetRefusal(message);
  if (refusal) throw refusal;
  if (message.startsWith("USER_DISABLED")) throw new IdentityError("disabled");
  if (response.status >= 500) throw new IdentityError("unavailable");
  // The error message is Google's code ("INVALID_API_KEY", ...), never the code or password sent.
  throw new Error(`Identity Toolkit accounts:resetPassword answered ${response.status} ${message}`);
}

export function createFirebaseIdentity(firebase: BackendConfig["firebase"]): Identity {
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
          providerUserId: decoded.firebase.identities?.[decoded.firebase.sign_in_provider]?.[0],
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

    async findUserByEmail(email) {
      try {
        const user = await auth.getUserByEmail(email);
        return {
          uid: user.uid,
          emailVerified: user.emailVerified,
          disabled: user.disabled,
          providerIds: user.providerData.map((info) => info.providerId),
        };
      } catch (error) {
        if (NO_SUCH_USER_CODES.has(errorCode(error)) || errorCode(error) === "auth/invalid-email") {
          return undefined;
        }
        throw identityError(error);
      }
    },

    async actionLink(mode, email) {
      try {
        return mode === "verifyEmail"
          ? await auth.generateEmailVerificationLink(email)
          : await auth.generatePasswordResetLink(email);
      } catch (error) {
        throw identityError(error);
      }
    },

    resetPassword: async (oobCode, newPassword) =>
      (await applyPasswordReset(firebase, oobCode, newPassword)).email,

    async checkResetCode(oobCode) {
      const { requestType } = await applyPasswordReset(firebase, oobCode);
      if (requestType !== "PASSWORD_RESET") throw new PasswordResetError("invalid-code");
    },

    async revokeTokens(uid) {
      try {
        await auth.revokeRefreshTokens(uid);
      } catch (error) {
        throw identityError(error);
      }
    },

    close: () => deleteApp(app),
  };
}
