/** The most fields an integration's setup form has; a longer body is not a setup. */
export const INTEGRATION_FIELDS_MAX = 20;

/**
 * Exact UI text of the code-host screens (docs/product.md#integrations, #installation). Apart from
 * shared/contract/accounts.ts so that only these pages load it (docs/decisions/006-page-weight.md).
 */
/** The integration screens (docs/product.md#integrations, #integrationsname). */
export const INTEGRATIONS = {
  noIntegrations: "No integrations found",
  notFound: "Integration not found",
  loadFailed: "Failed to load integration data",
  connected: "Connected",
  notConnected: "Not Connected",
  connect: "Connect",
  settings: "Settings",
  saveSettings: "Save Settings",
  saving: "Saving...",
  saved: "Settings saved successfully!",
  saveFailed: "Failed to save settings",
} as const;

/** The app-installation callback (docs/product.md#installation, #installation-messages). */
export const INSTALLATION = {
  pendingTitle: "Installation Pending",
  pending: "Please wait for request approval...",
  missingParameters: "Missing required parameters",
  failed: "Failed to complete installation",
  retry: "Retry Installation",
  /** The setup's code does not show that the user can reach the installation (a 403 of the setup). */
  notProven:
    "We could not confirm that you have access to this installation. Connect again from Integrations.",
  backToHome: "Back to Home",
} as const;

/** Azure DevOps: its service hook and the answers of its setup (docs/operations.md, "Azure DevOps"). */
export const AZURE_DEVOPS = {
  repositoryTaken:
    "A repository of this project is already connected to another organization. A repository can be reviewed for one organization only.",
  addressRefused:
    "The organization URL leads to a private or local network address, which this server does not call.",
  unresolvable: "The organization URL's host name could not be resolved.",
  setupRateLimited: "Too many setup attempts. Please wait a few minutes and try again.",
  hookTitle: "Service hook",
  hookUrlLabel: "Service hook URL",
  hookSecretLabel: "Service hook secret",
  hookSecretOnce:
    "Copy the secret now: it is shown only once. In Azure DevOps, create Web Hooks service hooks with this URL, any user name and this secret as the password.",
  hookSecretMissing:
    "This integration has no service-hook secret yet, so Azure DevOps events for it are refused. Generate one, then update your service hooks with the URL and secret shown.",
  hookSecretSet: "A secret is set. It is not shown again; generate a new one if it is lost.",
  generateSecret: "Generate a new secret",
  generatingSecret: "Generating...",
  generateSecretHint: "The current secret stops working at once.",
  secretGenerated: "A new service-hook secret was generated",
  secretFailed: "Failed to generate a secret",
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Could not copy; select the text and copy it instead",
} as const;
