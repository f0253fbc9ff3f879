/**
 * The accounts area of the HTTP contract (sign-in, signup, passwords, sessions): the exact UI text
 * and messages, then the valibot schemas of its requests and answers, in one module; a page that
 * does not use the schemas tree-shakes them away.
 */
import * as v from "valibot";
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
import { type Rule, SIGNUP_RULES, strongPassword, VALIDATION, validateField } from "../validation.ts";
import { schema } from "./schema.ts";

/** Exact UI text (docs/product.md#messages), written once and imported everywhere. */
export const TEXT = {
  welcomeTitle: (product: string) => `Welcome to ${product}`,
  loginTitle: "Welcome",
  subtitle: "AI-powered code review assistant",
  signupTagline: "Get started with AI-powered code reviews in seconds",
  signInWithEmail: "Sign in with Email",
  forgotPassword: "Forgot Password",
  noProjects: "No projects found",
  noDescription: "No description available",
  signOut: "Sign Out",
  activeSession: "Active Session",
  characterLimitReached: "Character limit reached",
  resendVerification: "Resend Verification Email",
  backToLogin: "Back to Login",
  backToSignup: "Back to Signup",
  goToLogin: "Go to Login",
  verificationResent: "Verification email sent again!",
  // Signup (docs/product.md#signup)
  nameLabel: "Name",
  passwordLabel: "Password",
  businessEmailLabel: "Business Email Address",
  businessEmailHint: "Please use your business email address",
  companyLabel: "Company",
  sourceLabel: "How did you hear about us?",
  createAccount: "Create Account",
  orContinueWith: "Or continue with",
  signInHere: "Sign in here",
  checkYourEmail: "Check Your Email",
  accountCreatedVerify: "Account created! Please check your email to verify your account.",
  accountCreatedWelcome: "Account created successfully! Welcome!",
  // Password reset (docs/product.md#forgot-password, #reset-password)
  sendResetLink: "Send Reset Link",
  passwordResetDone: "Your password has been reset. Sign in with your new password.",
  // E-mail verification (docs/product.md#email-verified)
  emailVerifiedDone: "Your email has been verified. You can sign in now.",
  signUpAgain: "Sign up again",
  // Login callback (docs/product.md#oauthcallbackprovider)
  signingYouIn: "Signing you in...",
  retryLogin: "Retry Login",
  // Local mode (docs/product.md#outbox)
  openOutbox: "Local mode: open the outbox",
} as const;

/** Strings that appear in more than one table below, written once. */
const NETWORK_ERROR = "Network error. Please try again.";

const ACCESS_DENIED = "Access denied. Please contact support.";

export const ERRORS = {
  noAuthToken: "No authentication token found",
  somethingWentWrong: "Something went wrong. Please try again.",
  verificationResendFailed: "Failed to resend verification email. Please try again.",
  loadProjects: "Failed to load projects data.",
  backendUnavailable: "Backend service unavailable. Please try again.",
  backendAuthFailed: "Backend authentication failed",
  userNotFound: "User not found in system. Please contact support.",
  notAuthorized: "User not authorized in backend system",
  accessDenied: ACCESS_DENIED,
  signupFailed: "Signup failed. Please try again.",
  firebaseSignupFailed: "Firebase signup failed. Please try again.",
  forgotPasswordFailed: "Failed to send the reset link. Please try again.",
  resetPasswordFailed: "Failed to reset the password. Please try again.",
  invalidResetLink: "This password reset link is invalid or incomplete.",
  outboxFailed: "Failed to load the outbox.",
  /** A refused event stream (429 TOO_MANY_STREAMS); the pages fall back to reloading quietly. */
  tooManyStreams: {
    session:
      "Too many live updates are open in this session. Close a tab showing reviews, or try again later.",
    organization: "Your organization has too many live updates open. Try again later.",
  },
  /** docs/product.md#github-sign-in-errors */
  gitHub: {
    emailMissing: "GitHub email not available.",
    noAccount: "No account found with this GitHub profile. Please sign up first.",
    signupFailed: "Failed to create account with GitHub. Please try again.",
    unauthorized: "Authentication failed. Please try again.",
    forbidden: ACCESS_DENIED,
    default: "Failed to fetch user data.",
  },
  /** docs/product.md#login-callback-errors */
  loginCallback: {
    unauthorized: "You are not allowed to login. Please contact support to get access.",
    forbidden:
      "Access denied. You don't have permission to use this application. Please reach out to support if you believe this is a mistake.",
    network: NETWORK_ERROR,
    timeout: "Request timed out. Please try again.",
    missingCode: "No code or provider found in callback URL.",
  },
  /** docs/product.md#verification-errors */
  verification: {
    invalidLink: "Invalid verification link",
    "auth/invalid-action-code": "This verification link is invalid or has already been used.",
    "auth/expired-action-code": "This verification link has expired. Sign in to get a new one.",
    "auth/user-disabled": "This account has been disabled. Please contact support.",
    default: "Verification failed",
  },
  identity: {
    "auth/user-not-found": "No account found with this email",
    "auth/wrong-password": "Invalid password",
    "auth/invalid-credential": "Invalid email or password",
    "auth/invalid-email": "Invalid email format",
    "auth/user-disabled": "User account has been disabled",
    "auth/too-many-requests": "Too many failed attempts. Please try again later",
    "auth/network-request-failed": NETWORK_ERROR,
    "auth/email-already-in-use": "An account with this email already exists. Please sign in instead.",
    "auth/weak-password": "This password is too weak. Please choose a stronger one.",
    "auth/popup-closed-by-user": "The sign-in window was closed before signing in finished.",
    "auth/popup-blocked": "The browser blocked the sign-in window. Please allow pop-ups and try again.",
    "auth/cancelled-popup-request": "Sign-in was cancelled because another sign-in window opened.",
    "auth/account-exists-with-different-credential":
      "An account already exists with this email address. Sign in with email and password instead.",
    "auth/unauthorized-domain": "Sign-in is not allowed from this address. Please contact support.",
    default: "Authentication error",
  },
} as const;

/**
 * Maps a Firebase Auth error code to the product's message; an unknown code gets `fallback`
 * (signup has its own, docs/product.md#signup-messages).
 */
export function identityErrorMessage(
  code: string | undefined,
  fallback: string = ERRORS.identity.default,
): string {
  const table: Record<string, string> = ERRORS.identity;
  return (code && code !== "default" && table[code]) || fallback;
}

/** docs/product.md#verification-errors: invalid, expired and disabled each have their own message. */
export function verificationErrorMessage(code: string | undefined): string {
  const table: Record<string, string> = ERRORS.verification;
  return (code?.startsWith("auth/") && table[code]) || ERRORS.verification.default;
}

/**
 * The backend's answers of the account flows (docs/product.md#signup-messages,
 * #github-sign-in-errors, #login-callback-errors, #forgot-password, #reset-password).
 */
export const ACCOUNT_MESSAGES = {
  /** resend-verification answers this whether or not the address has an account. */
  verificationSentIfAccount: "If an account exists for this address, we have sent a verification link.",
  /** forgot-password answers this whether or not the address has an account. */
  resetSentIfAccount: "If an account exists for this address, we have sent a link to reset your password.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  resetPasswordRefused: "This password was refused. Please choose a stronger one.",
  passwordReset: "Your password has been reset. Please sign in with your new password.",
  githubSignInUnavailable: "GitHub sign-in is not configured on this server.",
} as const;

/** The name edit dialogs of the signed-in layout (docs/product.md#signed-in-layout). */
export const NAME_EDIT = {
  userNameUpdated: "Name updated",
  orgNameUpdated: "Organization name updated",
  cancel: "Cancel",
  saveChanges: "Save Changes",
  /** The generic "Failed to update {label}. Please try again." (docs/product.md#messages). */
  failed: (label: string) => `Failed to update ${label}. Please try again.`,
} as const;

/**
 * Form validation rules (docs/product.md#validation) with their exact messages. Pure functions, used by the
 * browser forms and, where a server re-checks input, by the server too.
 *
 * A rule takes the field's value and answers the message to show, or undefined when it passes.
 * `validateField` runs rules in order and stops at the first failure, so "required" always wins
 * over "too short".
 */

// The product's forms ----------------------------------------------------------------------------

export const SESSION_ISSUER_DEFAULT = "argus-backend";

export const SESSION_AUDIENCE_DEFAULT = "argus-gateway";

// The schemas ------------------------------------------------------------------------------------

/**
 * A check from the account forms' rules (shared/validation.ts), so the backend refuses exactly what
 * the browser's forms refuse, with the same messages. `except`: messages another check gives already.
 */
function checkedBy(rules: readonly Rule[], except: readonly string[] = []) {
  return v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = validateField(dataset.value, rules);
    if (problem && !except.includes(problem)) addIssue({ message: problem });
  });
}

/** An e-mail address: the pattern zod's z.email() used before the contract moved to valibot, kept so no account stops matching. */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const emailSchema = schema(() =>
  v.pipe(v.string(), v.regex(EMAIL_PATTERN, "Invalid email address"), v.maxLength(EMAIL_MAX)),
);

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * An absolute https URL, at most URL_MAX characters, trimmed. `normalize`: the answer is the URL as
 * the parser writes it (its `href`); otherwise the trimmed text without tabs and line breaks (which
 * the parser ignores). The length bound applies to that answer.
 */
function httpsUrl(normalize: boolean) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.url(),
    // An unparseable URL has v.url()'s issue already.
    v.check((url) => (parsedUrl(url)?.protocol ?? "https:") === "https:", "Invalid protocol: expected https"),
    v.transform((url) => (normalize ? new URL(url).href : url.replace(/[\t\n\r]/g, ""))),
    v.maxLength(URL_MAX),
  );
}

export const userSchema = schema(() =>
  v.object({
    id: v.string(),
    email: v.string(),
    name: v.string(),
    role: v.string(),
  }),
);

export type User = v.InferOutput<typeof userSchema>;

export const orgSchema = schema(() =>
  v.object({
    org_id: v.string(),
    name: v.string(),
  }),
);

export type Org = v.InferOutput<typeof orgSchema>;

export const providerSchema = schema(() => v.picklist(["email", "github"]));

export type Provider = v.InferOutput<typeof providerSchema>;

/**
 * POST /auth/login. The product's login payload (docs/product.md#where-we-differ), except the password: Firebase has already checked
 * it, and the ID token proves that (docs/decisions/003-login-with-id-token.md). Every string is
 * bounded; `name` is only a fallback for an identity without one (the backend prefers the verified
 * identity's name), and an avatar must be an https URL.
 */
export const loginRequestSchema = schema(() =>
  v.object({
    email: emailSchema,
    firebase_uid: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)),
    name: v.optional(v.pipe(v.string(), v.maxLength(NAME_MAX))),
    avatar_url: v.optional(httpsUrl(true)),
    idToken: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_TOKEN_MAX)),
    /** GitHub sign-ins only: lets the backend confirm with GitHub that the address is verified. */
    oauthAccessToken: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(OAUTH_TOKEN_MAX))),
  }),
);

export type LoginRequest = v.InferOutput<typeof loginRequestSchema>;

/** What the backend answers to a sign-in; the gateway removes `token` before the browser sees it. */
export const signInResponseSchema = schema(() =>
  v.object({
    token: v.string(),
    user: userSchema,
    org: orgSchema,
  }),
);

export type SignInResponse = v.InferOutput<typeof signInResponseSchema>;

/** The same answer as the browser gets it: the gateway keeps the token (it becomes the cookie). */
export const browserSignInResponseSchema = schema(() => v.omit(signInResponseSchema, ["token"]));

export type BrowserSignInResponse = v.InferOutput<typeof browserSignInResponseSchema>;

/**
 * POST /auth/signup. The product's signup payload with the Firebase ID token of the account the
 * browser just created in place of the password (docs/decisions/003-login-with-id-token.md). An
 * unverified address creates no account yet: the backend keeps the profile and sends the
 * verification e-mail; the first verified sign-in creates the account from it.
 */
export const signupRequestSchema = schema(() =>
  v.object({
    name: v.pipe(v.string(), v.maxLength(NAME_MAX), checkedBy(SIGNUP_RULES.name), v.trim()),
    email: emailSchema,
    company: v.pipe(v.string(), v.maxLength(ORG_NAME_MAX), checkedBy(SIGNUP_RULES.company), v.trim()),
    source: v.pipe(v.string(), v.maxLength(SHORT_TEXT_MAX), checkedBy(SIGNUP_RULES.source), v.trim()),
    type: v.literal("EMAIL"),
    idToken: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_TOKEN_MAX)),
  }),
);

export type SignupRequest = v.InferOutput<typeof signupRequestSchema>;

/**
 * The signup answer. `requiresEmailVerification`: the 'Check Your Email' page follows, and no user
 * or org exists yet. Otherwise the account exists and the answer signs in (its token becomes the
 * cookie, like any sign-in answer).
 */
export const signupResponseSchema = schema(() =>
  v.object({
    requiresEmailVerification: v.boolean(),
    message: v.string(),
    token: v.optional(v.string()),
    user: v.optional(userSchema),
    org: v.optional(orgSchema),
  }),
);

export type SignupResponse = v.InferOutput<typeof signupResponseSchema>;

export const browserSignupResponseSchema = schema(() => v.omit(signupResponseSchema, ["token"]));

/**
 * POST /auth/github-signup: the GitHub identity from the Firebase popup. The ID token proves who
 * it is; the OAuth access token (scopes user:email, read:user) lets the backend ask GitHub which
 * of the user's addresses are verified, since Firebase does not vouch for GitHub addresses.
 */
export const githubSignupRequestSchema = schema(() =>
  v.object({
    email: emailSchema,
    displayName: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(NAME_MAX)))),
    photoURL: v.optional(v.nullable(httpsUrl(false))),
    screenName: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(ID_MAX)))),
    localId: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)),
    /** Absent only for the emulator's fake GitHub provider (local mode), which has no tokens. */
    oauthAccessToken: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(OAUTH_TOKEN_MAX))),
    scopes: v.pipe(v.array(v.pipe(v.string(), v.maxLength(ID_MAX))), v.maxLength(20)),
    idToken: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_TOKEN_MAX)),
  }),
);

export type GithubSignupRequest = v.InferOutput<typeof githubSignupRequestSchema>;

/** POST /auth/login/{provider}: the code of an OAuth redirect (/oauth/callback/{provider}). */
export const providerLoginRequestSchema = schema(() =>
  v.object({
    code: v.pipe(v.string(), v.minLength(1), v.maxLength(ONE_TIME_CODE_MAX)),
  }),
);

/**
 * POST /auth/resend-verification and POST /auth/forgot-password. Both answer the same
 * `{message}` whether or not the address has an account, so they reveal nothing.
 */
export const emailRequestSchema = schema(() => v.object({ email: emailSchema }));

/** POST /auth/reset-password: the code from the reset e-mail and the new password (never stored). */
export const resetPasswordRequestSchema = schema(() =>
  v.object({
    oobCode: v.pipe(v.string(), v.minLength(1), v.maxLength(ONE_TIME_CODE_MAX)),
    newPassword: v.pipe(
      v.string(),
      v.maxLength(STRONG_PASSWORD_MAX, VALIDATION.passwordTooLong),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const problem = strongPassword(dataset.value);
        if (problem && problem !== VALIDATION.passwordTooLong) addIssue({ message: problem });
      }),
    ),
  }),
);

/** POST /auth/reset-password/check: whether a reset link's code can still be used (400 if not). */
export const resetCodeCheckRequestSchema = schema(() => v.pick(resetPasswordRequestSchema, ["oobCode"]));

/** POST /api/user/update and POST /api/org/update: the name edit dialogs. */
export const nameUpdateRequestSchema = schema(() =>
  v.object({
    updateData: v.object({
      name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(EDITABLE_NAME_MAX)),
    }),
  }),
);

export const nameUpdateResponseSchema = schema(() => v.object({ success: v.boolean(), message: v.string() }));

/**
 * GET /auth/outbox, in local mode only (404 otherwise): the e-mails the local outbox holds instead
 * of sending them, newest first, so verification and reset work without an SMTP server.
 */
export const outboxResponseSchema = schema(() =>
  v.object({
    messages: v.array(
      v.object({
        id: v.string(),
        to: v.string(),
        subject: v.string(),
        text: v.string(),
        /** The links the e-mail carries (verification, password reset). */
        links: v.array(v.string()),
        sentAt: v.string(),
      }),
    ),
  }),
);

export type OutboxResponse = v.InferOutput<typeof outboxResponseSchema>;

/** POST /auth/refresh, bearer = the current session token. */
export const refreshResponseSchema = schema(() => v.object({ token: v.string() }));

export type RefreshResponse = v.InferOutput<typeof refreshResponseSchema>;

/**
 * Claims of the session JWT the backend signs (docs/architecture.md#cookie-and-token). Bounded
 * like the requests: a token with a longer claim does not count as a session.
 */
export const sessionClaimsSchema = schema(() =>
  v.object({
    sub: v.pipe(v.string(), v.maxLength(ID_MAX)),
    sid: v.pipe(v.string(), v.maxLength(ID_MAX)),
    orgId: v.pipe(v.string(), v.maxLength(ID_MAX)),
    email: v.pipe(v.string(), v.maxLength(EMAIL_MAX)),
    name: v.pipe(v.string(), v.maxLength(NAME_MAX)),
    role: v.pipe(v.string(), v.maxLength(ID_MAX)),
    provider: providerSchema,
    orgName: v.pipe(v.string(), v.maxLength(ORG_NAME_MAX)),
    iat: v.number(),
    exp: v.number(),
    /** Seconds since epoch of the sign-in that began this session; refresh never moves it. */
    auth_time: v.number(),
  }),
);

export type SessionClaims = v.InferOutput<typeof sessionClaimsSchema>;

/**
 * GET /auth/session-status (backend, asked by the gateway): the session is live, and the user's and
 * organisation's names now, so a rename shows in every signed-in browser without a new token.
 */
export const sessionStatusResponseSchema = schema(() => v.pick(sessionClaimsSchema, ["name", "orgName"]));

export type SessionNames = v.InferOutput<typeof sessionStatusResponseSchema>;

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
    const names = v.safeParse(sessionStatusResponseSchema, JSON.parse(decodeURIComponent(value)));
    return names.success ? names.output : undefined;
  } catch {
    return undefined;
  }
}

/** GET /auth/session (answered by the gateway): who is signed in, never the token. */
export const sessionUserSchema = schema(() =>
  v.object({
    id: v.string(),
    email: v.string(),
    name: v.string(),
    role: v.string(),
    provider: providerSchema,
    orgName: v.string(),
    orgId: v.string(),
  }),
);

export type SessionUser = v.InferOutput<typeof sessionUserSchema>;

export const sessionResponseSchema = schema(() => v.object({ user: v.nullable(sessionUserSchema) }));
