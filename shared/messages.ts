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
  verificationResent: "Verification email sent again!",
} as const;

export const VALIDATION = {
  required: "This field is required",
  minLength: (n: number) => `Must be at least ${n} characters`,
  email: "Please enter a valid email address",
  pattern: "Please enter a valid value",
  strongPassword:
    "Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character.",
  passwordTooLong: "Password must be lower than 128 characters.",
  passwordsDoNotMatch: "Passwords do not match",
} as const;

export const ERRORS = {
  noAuthToken: "No authentication token found",
  somethingWentWrong: "Something went wrong. Please try again.",
  verificationResendFailed: "Failed to resend verification email. Please try again.",
  loadProjects: "Failed to load projects data.",
  backendUnavailable: "Backend service unavailable. Please try again.",
  backendAuthFailed: "Backend authentication failed",
  userNotFound: "User not found in system. Please contact support.",
  notAuthorized: "User not authorized in backend system",
  accessDenied: "Access denied. Please contact support.",
  identity: {
    "auth/user-not-found": "No account found with this email",
    "auth/wrong-password": "Invalid password",
    "auth/invalid-credential": "Invalid email or password",
    "auth/invalid-email": "Invalid email format",
    "auth/user-disabled": "User account has been disabled",
    "auth/too-many-requests": "Too many failed attempts. Please try again later",
    "auth/network-request-failed": "Network error. Please try again.",
    default: "Authentication error",
  },
} as const;

/** Maps a Firebase Auth error code to the product's message, falling back to the default. */
export function identityErrorMessage(code: string | undefined): string {
  const table: Record<string, string> = ERRORS.identity;
  return (code && table[code]) || ERRORS.identity.default;
}

/**
 * The backend's answers of the account flows (docs/product.md#signup-messages,
 * #github-sign-in-errors, #login-callback-errors, #forgot-password, #reset-password).
 */
export const ACCOUNT_MESSAGES = {
  signupNeedsVerification: "Account created! Please check your email to verify your account.",
  signupSignedIn: "Account created successfully! Welcome!",
  /** resend-verification answers this whether or not the address has an account. */
  verificationSentIfAccount: "If an account exists for this address, we have sent a verification link.",
  /** forgot-password answers this whether or not the address has an account. */
  resetSentIfAccount: "If an account exists for this address, we have sent a link to reset your password.",
  githubNoAccount: "No account found with this GitHub profile. Please sign up first.",
  providerLoginNotAllowed: "You are not allowed to login. Please contact support to get access.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  resetPasswordRefused: "This password was refused. Please choose a stronger one.",
  passwordReset: "Your password has been reset. Please sign in with your new password.",
  githubSignInUnavailable: "GitHub sign-in is not configured on this server.",
} as const;
