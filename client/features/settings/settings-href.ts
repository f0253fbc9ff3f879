import { href } from "react-router";
import { SETTING_CATEGORIES } from "../../../shared/settings-catalogue.ts";

/**
 * The organisation view of a code host's settings. A module of its own: the integration pages link
 * there without loading what /settings works out (settings-page.ts).
 */
export function organizationSettingsHref(integrationName: string): string {
  return `${href("/settings")}?${new URLSearchParams({ integrationName })}`;
}

/** A repository's Built In Rules tab, where its findings marked as noise are listed (decision 062). */
export function noiseSettingsHref(repositoryId: string): string {
  return `${href("/settings")}?${new URLSearchParams({ repositoryId, tab: SETTING_CATEGORIES.builtInRules })}`;
}
