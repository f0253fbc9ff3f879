/** /settings loaded on the server, for the first HTML (docs/product.md#settings). */
import type { SettingTemplate } from "../../../shared/contract/settings.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import type { LoadResult } from "../../lib/load-result.server";
import { loadSettings } from "./settings-load";
import type { SettingsPage, SettingsPageQuery } from "./settings-page";

/**
 * How long the gateway answers renders from the templates it last loaded. The templates are the
 * backend's catalogue, the same for every user and organisation (only the values are theirs), so
 * one copy serves every render; asking again after a while picks up a backend that was upgraded.
 */
export const TEMPLATES_KEPT_MS = 5 * 60_000;

let kept: { templates: SettingTemplate[]; until: number } | undefined;

/** Drops the kept templates: tests that answer each render's templates call their own way. */
export function forgetKeptTemplates(): void {
  kept = undefined;
}

export function loadSettingsPage(
  api: Pick<ApiClient, "call" | "getIntegration">,
  query: SettingsPageQuery,
): Promise<LoadResult<SettingsPage>> {
  const cached = kept && Date.now() < kept.until ? kept.templates : undefined;
  return loadSettings(api, query, {
    cached,
    keep: (templates) => {
      kept = { templates, until: Date.now() + TEMPLATES_KEPT_MS };
    },
  });
}
