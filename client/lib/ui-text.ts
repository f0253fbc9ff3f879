/** The client's own wording, which is not spec text (spec strings live in shared/messages.ts). */
export const UI_TEXT = {
  signInWithGitHub: "Sign in with GitHub",
  signUpWithGitHub: "Sign up with GitHub",
  loginSuccess: "Signed in. Redirecting…",
} as const;

/** Local mode's stand-in for GitHub's sign-in popup (client/components/auth/local-github-dialog.tsx). */
export const LOCAL_GITHUB_TEXT = {
  title: "GitHub in local mode",
  description:
    "Local mode has no GitHub: the Firebase Auth emulator stands in for it. Enter the GitHub profile to continue as.",
  email: "GitHub e-mail",
  name: "Name",
  login: "GitHub username",
  continue: "Continue",
  cancel: "Cancel",
} as const;

/** The name edit dialogs of the signed-in layout (docs/product.md#signed-in-layout). */
export const NAME_EDIT_TEXT = {
  user: { action: "Edit name", title: "Edit name", field: "Name", noun: "name" },
  org: {
    action: "Edit organization name",
    title: "Edit organization name",
    field: "Organization name",
    noun: "organization name",
  },
} as const;

/** The sandbox code host: its install page (/sandbox/install) and its badge. */
export const SANDBOX_TEXT = {
  badge: "Sandbox",
  title: "Sandbox code host",
  explanation:
    'This server has no GitHub App, as in local mode, so this page stands in for GitHub\'s "Install the app" page. Installing grants these sample repositories only.',
  installationId: "Installation id",
  repositories: "Repositories it will grant",
  install: "Install",
  cancel: "Cancel",
} as const;
