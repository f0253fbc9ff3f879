import { href } from "react-router";
import { SETTING_CATEGORIES } from "../../../shared/settings-catalogue.ts";

/**
 * The organisation view of a code host's settings. A module of its own: the integration pages link
 * there without loading what /settings works out (settings-page.ts).
 */
export function organizationSettingsHref(integrationName: string): string {
  return `${href("/settings")}?${new URLSearchParams({ integrationName })}`;
}

/**
 * The Built In Rules tab, where rule families are turned on and off: a repository's, which also
 * lists its findings marked as noise (decision 062), or the organisation's.
 */
export function builtInRulesHref(repositoryId?: string): string {
  const tab = { tab: SETTING_CATEGORIES.builtInRules };
  return `${href("/settings")}?${new URLSearchParams(repositoryId ? { repositoryId, ...tab } : tab)}`;
}
