/** The client's own wording, which is not spec text (spec strings live in shared/messages.ts). */
export const UI_TEXT = {
  signInWithGitHub: "Sign in with GitHub",
  signUpWithGitHub: "Sign up with GitHub",
  loginSuccess: "Signed in. Redirecting…",
} as const;
