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

export const VALIDATION = {
  required: "This field is required",
  minLength: (n: number) => `Must be at least ${n} characters`,
  email: "Please enter a valid email address",
  pattern: "Please enter a valid value",
  strongPassword:
    "Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character.",
  passwordTooLong: "Password must be lower than 128 characters.",
  passwordForbiddenWord: (word: string) => `Password must not contain the word "${word}".`,
  passwordsDoNotMatch: "Passwords do not match",
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
