import { href } from "react-router";

/**
 * The organisation view of a code host's settings. A module of its own: the integration pages link
 * there without loading what /settings works out (settings-page.ts).
 */
export function organizationSettingsHref(integrationName: string): string {
  return `${href("/settings")}?${new URLSearchParams({ integrationName })}`;
}
