/**
 * The setting templates, kept in the browser once loaded (docs/product.md#settings: the client caches
 * them), so client navigations to /settings, a change of provider or a Retry load only the values.
 * Kept until the page is loaded again; a save the backend refuses drops them, in case they changed.
 * Only browser code writes here: a server render must not share one user's data with another's.
 */
import type { SettingTemplate } from "../../../shared/contract/settings.ts";

let kept: SettingTemplate[] | undefined;

export function cachedTemplates(): SettingTemplate[] | undefined {
  return kept;
}

export function keepTemplates(templates: SettingTemplate[]): void {
  kept = templates;
}

export function forgetTemplates(): void {
  kept = undefined;
}
