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

/** The name edit dialogs of the signed-in layout (docs/product.md#signed-in-layout). */
export const NAME_EDIT = {
  userNameUpdated: "Name updated",
  orgNameUpdated: "Organization name updated",
  cancel: "Cancel",
  saveChanges: "Save Changes",
  /** The generic "Failed to update {label}. Please try again." (docs/product.md#messages). */
  failed: (label: string) => `Failed to update ${label}. Please try again.`,
} as const;
