/**
 * Exact UI text of the code-host screens (docs/product.md#integrations, #installation). Apart from
 * shared/messages.ts so that only these pages load it (docs/decisions/006-page-weight.md).
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
