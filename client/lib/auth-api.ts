/**
 * The browser's calls to the gateway's /auth routes (same origin; the session cookie is HttpOnly,
 * so no token is ever handled here), and the mapping of their failures to the spec's messages.
 */
import {
  API_PATHS,
  type BrowserSignInResponse,
  errorBodySchema,
  type LoginRequest,
} from "../../shared/contract.ts";
import { ERRORS, TEXT } from "../../shared/messages.ts";

export const EMAIL_NOT_VERIFIED = "EMAIL_NOT_VERIFIED";
export const RESEND_VERIFICATION_PATH = "/auth/resend-verification";

export type LoginOutcome =
  | { kind: "ok"; body: BrowserSignInResponse }
  | { kind: "email-not-verified" }
  | { kind: "error"; message: string };

async function postJson(path: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers:
      body === undefined
        ? { accept: "application/json" }
        : { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function errorBodyOf(response: Response) {
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  return parsed.success ? parsed.data : undefined;
}

/** Spec section 8, "Login backend". */
export function backendLoginErrorMessage(status: number, serverMessage?: string): string {
  if (status === 404) return ERRORS.userNotFound;
  if (status === 401) return ERRORS.notAuthorized;
  if (status === 403) return ERRORS.accessDenied;
  if (status === 502 || status === 503 || status === 504) return ERRORS.backendUnavailable;
  return serverMessage || ERRORS.backendAuthFailed;
}

/** POST /auth/login with the Firebase ID token; the gateway sets the session cookie on success. */
export async function loginWithIdToken(payload: LoginRequest): Promise<LoginOutcome> {
  let response: Response;
  try {
    response = await postJson(API_PATHS.login, payload);
  } catch {
    return { kind: "error", message: ERRORS.backendUnavailable };
  }
  if (response.ok) {
    const body = (await response.json().catch(() => ({}))) as BrowserSignInResponse;
    return { kind: "ok", body };
  }
  const error = await errorBodyOf(response);
  if (error?.code === EMAIL_NOT_VERIFIED) return { kind: "email-not-verified" };
  return {
    kind: "error",
    message: backendLoginErrorMessage(response.status, error?.message ?? error?.error),
  };
}

/** POST /auth/logout. Never throws: sign-out goes on to /login whatever happened. */
export async function logout(): Promise<boolean> {
  try {
    const response = await postJson(API_PATHS.logout);
    return response.ok;
  } catch {
    return false;
  }
}

/** POST /auth/resend-verification {email}; answers the message to show and whether it worked. */
export async function resendVerification(email: string): Promise<{ ok: boolean; message: string }> {
  try {
    const response = await postJson(RESEND_VERIFICATION_PATH, { email });
    if (response.ok) return { ok: true, message: TEXT.verificationResent };
  } catch {
    // falls through to the failure message
  }
  return { ok: false, message: ERRORS.verificationResendFailed };
}
