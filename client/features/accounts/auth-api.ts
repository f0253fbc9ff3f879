/**
 * The browser's calls to the gateway's /auth routes (same origin; the session cookie is HttpOnly,
 * so no token is ever handled here), and the mapping of their failures to the product's messages (docs/product.md#messages).
 *
 * Pages never import this module statically, to keep the call code off the first load: they
 * load it with `loadAuthApi()` when a sign-in or sign-out starts (docs/decisions/006-page-weight.md).
 */

import type {
  BrowserSignInResponse,
  GithubSignupRequest,
  LoginRequest,
  SignupRequest,
} from "../../../shared/contract/accounts.ts";
import { ERRORS, TEXT } from "../../../shared/contract/accounts.ts";
import { ERROR_CODES } from "../../../shared/contract/common.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";

const api = browserApiClient();

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
    // Not an ApiError: the answer was not a JSON object (MalformedAnswerError).
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

// Signup -----------------------------------------------------------------------------------------

export type SignupOutcome =
  | { kind: "verify"; message: string }
  | { kind: "signed-in" }
  | { kind: "email-not-verified" }
  | { kind: "error"; message: string };

/** POST /auth/signup (docs/product.md#signup); a signed-in answer has set the session cookie. */
export async function signup(payload: SignupRequest): Promise<SignupOutcome> {
  try {
    const answer = await api.signup(payload);
    return answer.requiresEmailVerification
      ? { kind: "verify", message: answer.message }
      : { kind: "signed-in" };
  } catch (error) {
    if (!(error instanceof ApiError)) return { kind: "error", message: ERRORS.somethingWentWrong };
    if (error.code === ERROR_CODES.emailNotVerified) return { kind: "email-not-verified" };
    return { kind: "error", message: (error.body && error.message) || ERRORS.signupFailed };
  }
}

// GitHub -----------------------------------------------------------------------------------------

export type GitHubOutcome = { kind: "ok" } | { kind: "no-account" } | { kind: "error"; message: string };

/** docs/product.md#github-sign-in-errors; a 404 means different things on /login and /signup. */
export function gitHubErrorMessage(status: number, mode: "login" | "signup"): string {
  if (status === 404) return mode === "login" ? ERRORS.gitHub.noAccount : ERRORS.gitHub.signupFailed;
  if (status === 401) return ERRORS.gitHub.unauthorized;
  if (status === 403) return ERRORS.gitHub.forbidden;
  return ERRORS.gitHub.default;
}

async function gitHubCall(mode: "login" | "signup", call: () => Promise<unknown>): Promise<GitHubOutcome> {
  try {
    await call();
    return { kind: "ok" };
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    if (status === 404 && mode === "login") return { kind: "no-account" };
    return { kind: "error", message: gitHubErrorMessage(status, mode) };
  }
}

/** POST /auth/login with the GitHub identity's ID token and OAuth access token. */
export function gitHubLogin(payload: LoginRequest): Promise<GitHubOutcome> {
  return gitHubCall("login", () => api.login(payload));
}

/** POST /auth/github-signup. */
export function gitHubSignup(payload: GithubSignupRequest): Promise<GitHubOutcome> {
  return gitHubCall("signup", () => api.githubSignup(payload));
}

// Password reset ---------------------------------------------------------------------------------

/** The server's message when it gave one, else `fallback`. */
function serverMessage(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.body && error.message) || fallback;
}

/** POST /auth/forgot-password: the answer's message never tells whether the account exists. */
export async function forgotPassword(email: string): Promise<{ ok: boolean; message: string }> {
  try {
    return { ok: true, message: (await api.forgotPassword(email)).message };
  } catch (error) {
    return { ok: false, message: serverMessage(error, ERRORS.forgotPasswordFailed) };
  }
}

/** POST /auth/reset-password; a 400 (expired or used code) carries the server's message. */
export async function resetPassword(
  oobCode: string,
  newPassword: string,
): Promise<{ ok: true } | { ok: false; status: number; message: string }> {
  try {
    await api.resetPassword(oobCode, newPassword);
    return { ok: true };
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    return { ok: false, status, message: serverMessage(error, ERRORS.resetPasswordFailed) };
  }
}

// Login callback ---------------------------------------------------------------------------------

/** docs/product.md#login-callback */
export type CallbackOutcome =
  | { kind: "success" }
  | { kind: "unauthorized" | "forbidden" | "error" | "timeout"; message: string };

/** POST /auth/login/{provider} {code}, given up after `timeoutMs`. */
export async function providerLogin(
  provider: string,
  code: string,
  timeoutMs: number,
): Promise<CallbackOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await browserApiClient({ signal: controller.signal }).providerLogin(provider, code);
    return { kind: "success" };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "timeout", message: ERRORS.loginCallback.timeout };
    if (!(error instanceof ApiError)) return { kind: "error", message: ERRORS.somethingWentWrong };
    if (error.unreachable) return { kind: "error", message: ERRORS.loginCallback.network };
    if (error.status === 401) return { kind: "unauthorized", message: ERRORS.loginCallback.unauthorized };
    if (error.status === 403) return { kind: "forbidden", message: ERRORS.loginCallback.forbidden };
    return { kind: "error", message: ERRORS.somethingWentWrong };
  } finally {
    clearTimeout(timer);
  }
}
