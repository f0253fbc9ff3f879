/**
 * The Firebase Auth client, loaded on demand: the SDK is imported dynamically when a visitor starts
 * to sign in or up (the forms call `warmUpFirebaseAuth` on focus, `loadFirebaseAuth` on submit or a provider button; the
 * verification page when it opens), so no page's first load carries it
 * (docs/decisions/006-page-weight.md). Persistence is in memory: the
 * product's session is the gateway's HttpOnly cookie, Firebase only proves the password once.
 */
import type { Auth, User } from "firebase/auth";
import { GITHUB_SIGN_IN_SCOPES } from "../../../shared/constants.ts";
import type { PublicFirebaseConfig } from "../../lib/gateway-context";
import { withRecovery } from "../../lib/stale-build";

let pending: Promise<Auth> | null = null;

/** One Auth instance per page load (initializeAuth may run only once per app). */
function firebaseAuth(config: PublicFirebaseConfig): Promise<Auth> {
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

/** Firebase Auth, for a sign-in under way: reloads the page if its build has been replaced. */
export function loadFirebaseAuth(config: PublicFirebaseConfig): Promise<Auth> {
  return withRecovery(firebaseAuth(config));
}

/** Starts fetching Firebase Auth as a visitor starts to sign in (a failure is left to the sign-in). */
export function warmUpFirebaseAuth(config: PublicFirebaseConfig): void {
  firebaseAuth(config).catch(() => {});
}

export interface FirebaseIdentity {
  idToken: string;
  uid: string;
  email: string | null;
  name: string | null;
  avatarUrl: string | null;
}

async function identityOf(user: User): Promise<FirebaseIdentity> {
  const idToken = await user.getIdToken();
  return { idToken, uid: user.uid, email: user.email, name: user.displayName, avatarUrl: user.photoURL };
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
  return identityOf(user);
}

/** Creates the Firebase user of an e-mail signup; answers its ID token. Throws Firebase errors. */
export async function createUserWithEmail(
  config: PublicFirebaseConfig,
  email: string,
  password: string,
): Promise<FirebaseIdentity> {
  const auth = await loadFirebaseAuth(config);
  const { createUserWithEmailAndPassword } = await import("firebase/auth");
  const { user } = await createUserWithEmailAndPassword(auth, email, password);
  return identityOf(user);
}

export interface GitHubIdentity extends FirebaseIdentity {
  /** The GitHub OAuth access token; the backend asks GitHub with it which addresses are verified. */
  oauthAccessToken: string | null;
  /** The GitHub login name. */
  screenName: string | null;
  scopes: string[];
}

/**
 * GitHub sign-in through Firebase's popup (500 x 600, POPUP_WIDTH x POPUP_HEIGHT, is the SDK's own
 * size), asking for GITHUB_SIGN_IN_SCOPES. Against the emulator the popup is its fake GitHub page.
 * Throws Firebase errors (popup closed or blocked, account exists with another credential, ...).
 */
export async function signInWithGitHub(config: PublicFirebaseConfig): Promise<GitHubIdentity> {
  const auth = await loadFirebaseAuth(config);
  const { browserPopupRedirectResolver, GithubAuthProvider, getAdditionalUserInfo, signInWithPopup } =
    await import("firebase/auth");
  const provider = new GithubAuthProvider();
  for (const scope of GITHUB_SIGN_IN_SCOPES) provider.addScope(scope);
  // initializeAuth (unlike getAuth) brings no popup support of its own: it is passed here, so only
  // the GitHub buttons load it.
  const result = await signInWithPopup(auth, provider, browserPopupRedirectResolver);
  const identity = await identityOf(result.user);
  // GitHub may keep the address on the provider profile only.
  const email = identity.email ?? result.user.providerData.find((profile) => profile.email)?.email ?? null;
  return {
    ...identity,
    email,
    oauthAccessToken: GithubAuthProvider.credentialFromResult(result)?.accessToken ?? null,
    screenName: getAdditionalUserInfo(result)?.username ?? null,
    scopes: [...GITHUB_SIGN_IN_SCOPES],
  };
}

/** A made-up GitHub profile for the emulator's fake GitHub provider. */
export type EmulatorGitHubProfile = {
  email: string;
  name: string;
  login: string;
};

/**
 * Local mode's stand-in for GitHub's popup. Firebase's popup needs a script from Google's hosts,
 * which local mode does without (no internet, and the CSP allows none), so against the emulator the
 * GitHub identity comes from the emulator's fake provider instead: it accepts a GitHub profile as
 * unsigned claims. There is no GitHub access token then; the backend takes the emulator's word for
 * the address, as it only does for identities without one.
 */
export async function signInWithEmulatorGitHub(
  config: PublicFirebaseConfig,
  profile: EmulatorGitHubProfile,
): Promise<GitHubIdentity> {
  const auth = await loadFirebaseAuth(config);
  const { OAuthProvider, signInWithCredential } = await import("firebase/auth");
  const claims = {
    sub: `local-${profile.login}`,
    email: profile.email,
    email_verified: true,
    name: profile.name || undefined,
    screen_name: profile.login,
  };
  const credential = new OAuthProvider("github.com").credential({ idToken: JSON.stringify(claims) });
  const { user } = await signInWithCredential(auth, credential);
  return {
    ...(await identityOf(user)),
    email: user.email ?? profile.email,
    oauthAccessToken: null,
    screenName: profile.login,
    scopes: [...GITHUB_SIGN_IN_SCOPES],
  };
}

/** Applies an e-mail verification code (the `oobCode` of the link). Throws Firebase errors. */
export async function applyVerificationCode(config: PublicFirebaseConfig, oobCode: string): Promise<void> {
  const auth = await loadFirebaseAuth(config);
  const { applyActionCode } = await import("firebase/auth");
  await applyActionCode(auth, oobCode);
}

/** Forgets the Firebase user; the product session lives on in the gateway cookie. Never throws. */
/**
 * Deletes the Firebase user this page just created (a signup the backend then refused), so that
 * trying again does not meet "email already in use". Best effort, like signing out.
 */
export async function discardNewFirebaseUser(config: PublicFirebaseConfig): Promise<void> {
  try {
    const auth = await loadFirebaseAuth(config);
    await auth.currentUser?.delete();
  } catch {
    // Left behind: the address then signs up by signing in, once verified.
  }
}

export async function signOutOfFirebase(config: PublicFirebaseConfig): Promise<void> {
  try {
    const auth = await loadFirebaseAuth(config);
    const { signOut } = await import("firebase/auth");
    await signOut(auth);
  } catch {
    // Nothing to do: the in-memory Firebase session ends with the page anyway.
  }
}

/** Only an https avatar is sent on (the contract refuses others, docs/product.md#entities). */
export function httpsUrlOrNull(url: string | null): string | null {
  return url?.startsWith("https://") ? url : null;
}

/** The `auth/...` code of a Firebase error, if it is one. */
export function firebaseErrorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
