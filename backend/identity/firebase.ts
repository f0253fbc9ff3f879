/**
 * Identity adapter: checks Firebase ID tokens with firebase-admin. Against the Auth emulator
 * (FIREBASE_AUTH_EMULATOR_HOST) firebase-admin accepts the emulator's unsigned tokens but asks the
 * emulator whether the user exists and is enabled; against a real project it checks Google's
 * signatures. Each backend gets its own named firebase-admin app, so several can share a process.
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

export interface IdentityVerifier {
  /** Rejects with IdentityError when the token is not acceptable. */
  verifyIdToken(idToken: string): Promise<VerifiedIdentity>;
  close(): Promise<void>;
}

export class IdentityError extends Error {
  override name = "IdentityError";
  readonly reason: "invalid" | "disabled" | "unavailable";

  constructor(reason: IdentityError["reason"], options?: ErrorOptions) {
    super(`ID token refused: ${reason}`, options);
    this.reason = reason;
  }
}

/** firebase-admin error codes that mean "this token does not prove who the caller is". */
const INVALID_TOKEN_CODES = new Set([
  "auth/argument-error",
  "auth/invalid-id-token",
  "auth/id-token-expired",
  "auth/id-token-revoked",
  "auth/user-not-found",
]);

function classify(error: unknown): IdentityError["reason"] | undefined {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  if (INVALID_TOKEN_CODES.has(code)) return "invalid";
  if (code === "auth/user-disabled") return "disabled";
  if (code.startsWith("app/network")) return "unavailable";
  return undefined;
}

export function createFirebaseIdentity(firebase: BackendConfig["firebase"]): IdentityVerifier {
  // firebase-admin reads the emulator address from this variable only, at each call.
  if (firebase.authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = firebase.authEmulatorHost;
  const app = initializeApp({ projectId: firebase.projectId }, `argus-backend-${randomUUID()}`);
  const auth = getAuth(app);

  return {
    async verifyIdToken(idToken) {
      try {
        const decoded = await auth.verifyIdToken(idToken);
        return {
          uid: decoded.uid,
          email: decoded.email,
          emailVerified: decoded.email_verified === true,
          name: typeof decoded.name === "string" ? decoded.name : undefined,
          picture: decoded.picture,
          signInProvider: decoded.firebase.sign_in_provider,
        };
      } catch (error) {
        const reason = classify(error);
        if (reason) throw new IdentityError(reason, { cause: error });
        throw error;
      }
    },
    close: () => deleteApp(app),
  };
}
