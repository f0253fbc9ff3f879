/**
 * Exact UI text of the settings screen (docs/product.md#settings, #settings-integration-and-project-messages).
 * Apart from shared/messages.ts so that only that page loads it (docs/decisions/006-page-weight.md);
 * the backend answers a save with the same success text.
 */
export const SETTINGS = {
  repositoryTitle: "Repository Settings",
  organizationTitle: "Organization Settings",
  loading: "Loading settings...",
  noTemplates: "No settings available at this time.",
  loadFailed: "Failed to load settings",
  /** The repository view of an id no repository of the organisation has (the backend's 404 too). */
  repositoryNotFound: "Repository not found",
  templatesLoadFailed: "Failed to load settings templates",
  updateFailed: "Failed to update setting",
  /** A switch whose save failed, after it is rolled back. */
  updateLabelFailed: (label: string) => `Failed to update ${label}. Please try again.`,
  repositorySaved: "Repository setting updated successfully",
  organizationSaved: "Organization setting updated successfully",
  /** The organisation view's card when the chosen code host is not connected. */
  connectTo: (displayName: string) => `Connect to ${displayName}`,
} as const;
