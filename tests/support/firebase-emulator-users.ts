/**
 * Test helpers that act on a running Firebase Auth emulator through its REST API, the way the
 * browser SDK and the admin SDK would: create, sign in, change and delete users.
 */

export interface EmulatorUser {
  email: string;
  password: string;
  displayName?: string;
  emailVerified?: boolean;
}

async function emulatorRequest<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) {
    throw new Error(`Firebase emulator ${new URL(url).pathname}: ${json.error?.message ?? response.status}`);
  }
  return json;
}

/** Creates a user through the emulator's admin API ("Bearer owner"); returns its uid. */
export async function createEmulatorUser(
  host: string,
  projectId: string,
  user: EmulatorUser,
): Promise<{ uid: string }> {
  const created = await emulatorRequest<{ localId: string }>(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts`,
    {
      email: user.email,
      password: user.password,
      displayName: user.displayName,
      emailVerified: user.emailVerified ?? false,
    },
    { authorization: "Bearer owner" },
  );
  return { uid: created.localId };
}

/** Signs in with e-mail and password, as the browser SDK would; returns the Firebase ID token. */
export async function signInOnEmulator(host: string, email: string, password: string): Promise<string> {
  const signedIn = await emulatorRequest<{ idToken: string }>(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`,
    { email, password, returnSecureToken: true },
  );
  return signedIn.idToken;
}

/**
 * Changes a user through the emulator's admin API (e.g. disable it, mark its e-mail verified,
 * give it another address). `validSince` (seconds since the epoch) revokes every ID token whose
 * sign-in (auth_time) is older, as firebase-admin's revokeRefreshTokens does.
 */
export async function updateEmulatorUser(
  host: string,
  projectId: string,
  uid: string,
  changes: {
    displayName?: string;
    email?: string;
    emailVerified?: boolean;
    disabled?: boolean;
    validSince?: number;
  },
): Promise<void> {
  await emulatorRequest(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:update`,
    {
      localId: uid,
      displayName: changes.displayName,
      email: changes.email,
      emailVerified: changes.emailVerified,
      disableUser: changes.disabled,
      validSince: changes.validSince === undefined ? undefined : String(changes.validSince),
    },
    { authorization: "Bearer owner" },
  );
}

export async function deleteEmulatorUser(host: string, projectId: string, uid: string): Promise<void> {
  await emulatorRequest(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:delete`,
    { localId: uid },
    { authorization: "Bearer owner" },
  );
}

/**
 * Signs in through the emulator's fake GitHub provider, as its sign-in popup would; creates the
 * user on first use. Returns the Firebase uid and ID token (sign_in_provider "github.com").
 */
export async function signInWithGitHubOnEmulator(
  host: string,
  profile: { githubId: string; email: string; name?: string; emailVerified?: boolean },
): Promise<{ uid: string; idToken: string }> {
  const claims = {
    sub: profile.githubId,
    email: profile.email,
    email_verified: profile.emailVerified ?? false,
    name: profile.name,
  };
  const signedIn = await emulatorRequest<{ localId: string; idToken: string }>(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=any`,
    {
      postBody: new URLSearchParams({
        providerId: "github.com",
        id_token: JSON.stringify(claims),
      }).toString(),
      requestUri: "http://localhost",
      returnSecureToken: true,
    },
  );
  return { uid: signedIn.localId, idToken: signedIn.idToken };
}

export interface EmulatorOobCode {
  email: string;
  oobCode: string;
  /** "VERIFY_EMAIL", "PASSWORD_RESET", ... */
  requestType: string;
}

/** The out-of-band codes (verification, reset) the emulator has issued, oldest first. */
export async function emulatorOobCodes(host: string, projectId: string): Promise<EmulatorOobCode[]> {
  const response = await fetch(`http://${host}/emulator/v1/projects/${projectId}/oobCodes`);
  if (!response.ok) throw new Error(`Firebase emulator oobCodes: ${response.status}`);
  return ((await response.json()) as { oobCodes: EmulatorOobCode[] }).oobCodes;
}

/** Applies an e-mail verification code, as the browser SDK's applyActionCode does. */
export async function applyVerificationCodeOnEmulator(host: string, oobCode: string): Promise<void> {
  await emulatorRequest(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:update?key=any`, {
    oobCode,
  });
}

/**
 * The newest out-of-band code the emulator issued for an address (the code an e-mail's link would
 * carry): "VERIFY_EMAIL" or "PASSWORD_RESET". Undefined when it holds none.
 */
export async function latestOobCode(
  host: string,
  projectId: string,
  email: string,
  requestType: "VERIFY_EMAIL" | "PASSWORD_RESET",
): Promise<string | undefined> {
  const codes = await emulatorOobCodes(host, projectId);
  return codes.filter((code) => code.email === email && code.requestType === requestType).at(-1)?.oobCode;
}
