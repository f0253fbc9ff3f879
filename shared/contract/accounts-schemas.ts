/** The zod schemas of shared/contract/accounts.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import {
  EDITABLE_NAME_MAX,
  EMAIL_MAX,
  ID_MAX,
  ID_TOKEN_MAX,
  NAME_MAX,
  OAUTH_TOKEN_MAX,
  ONE_TIME_CODE_MAX,
  ORG_NAME_MAX,
  SHORT_TEXT_MAX,
  STRONG_PASSWORD_MAX,
  URL_MAX,
} from "../constants.ts";
import { type Rule, SIGNUP_RULES, strongPassword, validateField } from "../validation.ts";
import { VALIDATION } from "./accounts.ts";

/**
 * A zod refinement from the form rules of shared/contract/accounts.ts, so the backend refuses exactly what
 * the browser's forms refuse, with the same messages. `except`: messages another check gives already.
 */
function checkedBy(rules: readonly Rule[], except: readonly string[] = []) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = validateField(value, rules);
    if (problem && !except.includes(problem)) ctx.addIssue({ code: "custom", message: problem });
  };
}

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
});

export type User = z.infer<typeof userSchema>;

export const orgSchema = z.object({
  org_id: z.string(),
  name: z.string(),
});

export type Org = z.infer<typeof orgSchema>;

export const providerSchema = z.enum(["email", "github"]);

export type Provider = z.infer<typeof providerSchema>;

/**
 * POST /auth/login. The product's login payload (docs/product.md#where-we-differ), except the password: Firebase has already checked
 * it, and the ID token proves that (docs/decisions/003-login-with-id-token.md). Every string is
 * bounded; `name` is only a fallback for an identity without one (the backend prefers the verified
 * identity's name), and an avatar must be an https URL.
 */
export const loginRequestSchema = z.object({
  email: z.email().max(EMAIL_MAX),
  firebase_uid: z.string().min(1).max(ID_MAX),
  name: z.string().max(NAME_MAX).optional(),
  avatar_url: z
    .url({ protocol: /^https$/, normalize: true })
    .max(URL_MAX)
    .optional(),
  idToken: z.string().min(1).max(ID_TOKEN_MAX),
  /** GitHub sign-ins only: lets the backend confirm with GitHub that the address is verified. */
  oauthAccessToken: z.string().min(1).max(OAUTH_TOKEN_MAX).optional(),
});

export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** What the backend answers to a sign-in; the gateway removes `token` before the browser sees it. */
export const signInResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  org: orgSchema,
});

export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** The same answer as the browser gets it: the gateway keeps the token (it becomes the cookie). */
export const browserSignInResponseSchema = signInResponseSchema.omit({ token: true });

export type BrowserSignInResponse = z.infer<typeof browserSignInResponseSchema>;

/**
 * POST /auth/signup. The product's signup payload with the Firebase ID token of the account the
 * browser just created in place of the password (docs/decisions/003-login-with-id-token.md). An
 * unverified address creates no account yet: the backend keeps the profile and sends the
 * verification e-mail; the first verified sign-in creates the account from it.
 */
export const signupRequestSchema = z.object({
  name: z.string().max(NAME_MAX).superRefine(checkedBy(SIGNUP_RULES.name)).trim(),
  email: z.email().max(EMAIL_MAX),
  company: z.string().max(ORG_NAME_MAX).superRefine(checkedBy(SIGNUP_RULES.company)).trim(),
  source: z.string().max(SHORT_TEXT_MAX).superRefine(checkedBy(SIGNUP_RULES.source)).trim(),
  type: z.literal("EMAIL"),
  idToken: z.string().min(1).max(ID_TOKEN_MAX),
});

export type SignupRequest = z.infer<typeof signupRequestSchema>;

/**
 * The signup answer. `requiresEmailVerification`: the 'Check Your Email' page follows, and no user
 * or org exists yet. Otherwise the account exists and the answer signs in (its token becomes the
 * cookie, like any sign-in answer).
 */
export const signupResponseSchema = z.object({
  requiresEmailVerification: z.boolean(),
  message: z.string(),
  token: z.string().optional(),
  user: userSchema.optional(),
  org: orgSchema.optional(),
});

export type SignupResponse = z.infer<typeof signupResponseSchema>;

export const browserSignupResponseSchema = signupResponseSchema.omit({ token: true });

/**
 * POST /auth/github-signup: the GitHub identity from the Firebase popup. The ID token proves who
 * it is; the OAuth access token (scopes user:email, read:user) lets the backend ask GitHub which
 * of the user's addresses are verified, since Firebase does not vouch for GitHub addresses.
 */
export const githubSignupRequestSchema = z.object({
  email: z.email().max(EMAIL_MAX),
  displayName: z.string().max(NAME_MAX).nullable().optional(),
  photoURL: z
    .url({ protocol: /^https$/ })
    .max(URL_MAX)
    .nullable()
    .optional(),
  screenName: z.string().max(ID_MAX).nullable().optional(),
  localId: z.string().min(1).max(ID_MAX),
  /** Absent only for the emulator's fake GitHub provider (local mode), which has no tokens. */
  oauthAccessToken: z.string().min(1).max(OAUTH_TOKEN_MAX).optional(),
  scopes: z.array(z.string().max(ID_MAX)).max(20),
  idToken: z.string().min(1).max(ID_TOKEN_MAX),
});

export type GithubSignupRequest = z.infer<typeof githubSignupRequestSchema>;

/** POST /auth/login/{provider}: the code of an OAuth redirect (/oauth/callback/{provider}). */
export const providerLoginRequestSchema = z.object({ code: z.string().min(1).max(ONE_TIME_CODE_MAX) });

/**
 * POST /auth/resend-verification and POST /auth/forgot-password. Both answer the same
 * `{message}` whether or not the address has an account, so they reveal nothing.
 */
export const emailRequestSchema = z.object({ email: z.email().max(EMAIL_MAX) });

/** POST /auth/reset-password: the code from the reset e-mail and the new password (never stored). */
export const resetPasswordRequestSchema = z.object({
  oobCode: z.string().min(1).max(ONE_TIME_CODE_MAX),
  newPassword: z
    .string()
    .max(STRONG_PASSWORD_MAX, VALIDATION.passwordTooLong)
    .superRefine((value, ctx) => {
      const problem = strongPassword(value);
      if (problem && problem !== VALIDATION.passwordTooLong)
        ctx.addIssue({ code: "custom", message: problem });
    }),
});

/** POST /auth/reset-password/check: whether a reset link's code can still be used (400 if not). */
export const resetCodeCheckRequestSchema = resetPasswordRequestSchema.pick({ oobCode: true });

/** POST /api/user/update and POST /api/org/update: the name edit dialogs. */
export const nameUpdateRequestSchema = z.object({
  updateData: z.object({ name: z.string().trim().min(1).max(EDITABLE_NAME_MAX) }),
});

export const nameUpdateResponseSchema = z.object({ success: z.boolean(), message: z.string() });

/**
 * GET /auth/outbox, in local mode only (404 otherwise): the e-mails the local outbox holds instead
 * of sending them, newest first, so verification and reset work without an SMTP server.
 */
export const outboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      /** The links the e-mail carries (verification, password reset). */
      links: z.array(z.string()),
      sentAt: z.string(),
    }),
  ),
});

export type OutboxResponse = z.infer<typeof outboxResponseSchema>;

/** POST /auth/refresh, bearer = the current session token. */
export const refreshResponseSchema = z.object({ token: z.string() });

export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

/**
 * Claims of the session JWT the backend signs (docs/architecture.md#cookie-and-token). Bounded
 * like the requests: a token with a longer claim does not count as a session.
 */
export const sessionClaimsSchema = z.object({
  sub: z.string().max(ID_MAX),
  sid: z.string().max(ID_MAX),
  orgId: z.string().max(ID_MAX),
  email: z.string().max(EMAIL_MAX),
  name: z.string().max(NAME_MAX),
  role: z.string().max(ID_MAX),
  provider: providerSchema,
  orgName: z.string().max(ORG_NAME_MAX),
  iat: z.number(),
  exp: z.number(),
  /** Seconds since epoch of the sign-in that began this session; refresh never moves it. */
  auth_time: z.number(),
});

export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

/**
 * GET /auth/session-status (backend, asked by the gateway): the session is live, and the user's and
 * organisation's names now, so a rename shows in every signed-in browser without a new token.
 */
export const sessionStatusResponseSchema = sessionClaimsSchema.pick({ name: true, orgName: true });

export type SessionNames = z.infer<typeof sessionStatusResponseSchema>;

/**
 * The same answer on every /api call of a live session, as a header (URI-encoded JSON): a page's
 * own calls to the backend tell the gateway that the session is live and the names to show, so a
 * page render needs no session-status call of its own (docs/decisions/049-session-confirmed-by-page-calls.md).
 */
export const SESSION_NAMES_HEADER = "x-session-names";

export const sessionNamesHeaderValue = (names: SessionNames): string =>
  encodeURIComponent(JSON.stringify(names));

/** The names of a SESSION_NAMES_HEADER, or undefined for none or a malformed one. */
export function sessionNamesOfHeader(value: string | null | undefined): SessionNames | undefined {
  if (!value) return undefined;
  try {
    const names = sessionStatusResponseSchema.safeParse(JSON.parse(decodeURIComponent(value)));
    return names.success ? names.data : undefined;
  } catch {
    return undefined;
  }
}

/** GET /auth/session (answered by the gateway): who is signed in, never the token. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  provider: providerSchema,
  orgName: z.string(),
  orgId: z.string(),
});

export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionResponseSchema = z.object({ user: sessionUserSchema.nullable() });
