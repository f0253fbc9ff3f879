/**
 * The Firebase Auth client, loaded on demand: the SDK is imported dynamically when a visitor starts
 * to sign in (the login form calls `loadFirebaseAuth` on focus, submit or a provider button), so no
 * page's first load carries it (docs/decisions/006-page-weight.md). Persistence is in memory: the
 * product's session is the gateway's HttpOnly cookie, Firebase only proves the password once.
 */
import type { Auth } from "firebase/auth";
import type { PublicFirebaseConfig } from "./gateway-context";

let pending: Promise<Auth> | null = null;

/** One Auth instance per page load (initializeAuth may run only once per app). */
export function loadFirebaseAuth(config: PublicFirebaseConfig): Promise<Auth> {
  pending ??= (async () => {
    const [{ getApp, getApps, initializeApp }, { connectAuthEmulator, inMemoryPersistence, initializeAuth }] =
      await Promise.all([import("firebase/app"), import("firebase/auth")]);
    const app =
      getApps().length > 0
        ? getApp()
        : initializeApp({
            apiKey: config.apiKey,
            authDomain: config.authDomain,
            projectId: config.projectId,
          });
    const auth = initializeAuth(app, { persistence: inMemoryPersistence });
    if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    return auth;
  })().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

export interface FirebaseIdentity {
  idToken: string;
  uid: string;
  email: string | null;
  name: string | null;
  avatarUrl: string | null;
}

/** Email and password sign-in; answers the ID token that proves it. Throws Firebase errors. */
export async function signInWithEmail(
  config: PublicFirebaseConfig,
  email: string,
  password: string,
): Promise<FirebaseIdentity> {
  const auth = await loadFirebaseAuth(config);
  const { signInWithEmailAndPassword } = await import("firebase/auth");
  const { user } = await signInWithEmailAndPassword(auth, email, password);
  const idToken = await user.getIdToken();
  return { idToken, uid: user.uid, email: user.email, name: user.displayName, avatarUrl: user.photoURL };
}

/** Forgets the Firebase user; the product session lives on in the gateway cookie. Never throws. */
export async function signOutOfFirebase(config: PublicFirebaseConfig): Promise<void> {
  try {
    const auth = await loadFirebaseAuth(config);
    const { signOut } = await import("firebase/auth");
    await signOut(auth);
  } catch {
    // Nothing to do: the in-memory Firebase session ends with the page anyway.
  }
}

/** The `auth/...` code of a Firebase error, if it is one. */
export function firebaseErrorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
