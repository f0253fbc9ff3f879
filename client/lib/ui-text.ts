/**
 * The client's own wording, which is not product-contract text (that lives in shared/contract/accounts.ts).
 * Every page loads this module: wording of one screen or dialog lives beside it instead.
 */
export const UI_TEXT = {
  signInWithGitHub: "Sign in with GitHub",
  signUpWithGitHub: "Sign up with GitHub",
  loginSuccess: "Signed in. Redirecting…",
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
