/**
 * Exact spec strings the screens of this issue need that shared/messages.ts does not hold yet, plus
 * the client's own wording (marked). Candidates to move into shared/messages.ts.
 */
export const UI_TEXT = {
  // Spec section 8, Signup / Resend (also used by the login verification panel).
  verificationResent: "Verification email sent again!",
  verificationResendFailed: "Failed to resend verification email. Please try again.",
  somethingWentWrong: "Something went wrong. Please try again.",
  // Spec section 2, /login verification panel buttons.
  resendVerification: "Resend Verification Email",
  backToLogin: "Back to Login",
  // Client wording (not spec text).
  signInWithGitHub: "Sign in with GitHub",
  gitHubComingSoon: "GitHub sign-in is not available yet.",
  loginSuccess: "Signed in. Redirecting…",
} as const;
