/**
 * The browser's calls to the gateway's /auth routes (same origin; the session cookie is HttpOnly,
 * so no token is ever handled here), and the mapping of their failures to the product's messages (docs/product.md#messages).
 *
 * This module brings zod and the contract's schemas, so pages never import it statically: they
 * load it with `loadAuthApi()` when a sign-in or sign-out starts (docs/decisions/006-page-weight.md).
 */
import { ApiError, createApiClient } from "../../shared/api-client.ts";
import { type BrowserSignInResponse, ERROR_CODES, type LoginRequest } from "../../shared/contract.ts";
import { ERRORS, TEXT } from "../../shared/messages.ts";

const api = createApiClient({ baseUrl: "" });

export type LoginOutcome =
  | { kind: "ok"; body: BrowserSignInResponse }
  | { kind: "email-not-verified" }
  | { kind: "error"; message: string };

/** docs/product.md#sign-in-backend-errors */
export function backendLoginErrorMessage(status: number, serverMessage?: string): string {
  if (status === 404) return ERRORS.userNotFound;
  if (status === 401) return ERRORS.notAuthorized;
  if (status === 403) return ERRORS.accessDenied;
  if (status === 502 || status === 503 || status === 504) return ERRORS.backendUnavailable;
  return serverMessage || ERRORS.backendAuthFailed;
}

/** POST /auth/login with the Firebase ID token; the gateway sets the session cookie on success. */
export async function loginWithIdToken(payload: LoginRequest): Promise<LoginOutcome> {
  try {
    return { kind: "ok", body: await api.login(payload) };
  } catch (error) {
    // Not an ApiError: the answer did not have the contract's shape.
    if (!(error instanceof ApiError)) return { kind: "error", message: ERRORS.backendAuthFailed };
    if (error.code === ERROR_CODES.emailNotVerified) return { kind: "email-not-verified" };
    return {
      kind: "error",
      message: backendLoginErrorMessage(error.status, error.body ? error.message : undefined),
    };
  }
}

/** POST /auth/logout. Never throws: sign-out goes on to /login whatever happened. */
export async function logout(): Promise<boolean> {
  try {
    await api.logout();
    return true;
  } catch {
    return false;
  }
}

/** POST /auth/resend-verification {email}; answers the message to show and whether it worked. */
export async function resendVerification(email: string): Promise<{ ok: boolean; message: string }> {
  try {
    await api.resendVerification(email);
    return { ok: true, message: TEXT.verificationResent };
  } catch {
    return { ok: false, message: ERRORS.verificationResendFailed };
  }
}
