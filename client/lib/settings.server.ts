/** /settings loaded on the server, for the first HTML (docs/product.md#settings). */
import type { ApiClient } from "../../shared/api-client.ts";
import { API_PATHS } from "../../shared/contract.ts";
import { DEFAULT_SETTINGS_PROVIDER } from "../../shared/settings-catalogue.ts";
import {
  ACTIVE_SETTING_TEMPLATES_PATH,
  settingsResponseSchema,
  settingTemplatesResponseSchema,
} from "../../shared/settings-contract.ts";
import { SETTINGS } from "../../shared/settings-messages.ts";
import { loadIntegration } from "./integrations.server";
import { type LoadResult, settle } from "./load-result.server";
import {
  combineSettingsPage,
  type SettingsPage,
  type SettingsPageQuery,
  settingsCallQuery,
} from "./settings-page";

export function loadSettingsPage(
  api: Pick<ApiClient, "request" | "getIntegration">,
  query: SettingsPageQuery,
): Promise<LoadResult<SettingsPage>> {
  const templates = settle(
    api.request(settingTemplatesResponseSchema, ACTIVE_SETTING_TEMPLATES_PATH).then((answer) => answer.data),
    SETTINGS.templatesLoadFailed,
  );
  const settings = settle(
    api
      .request(settingsResponseSchema, `${API_PATHS.settings}?${settingsCallQuery(query)}`)
      .then((answer) => answer.data),
    SETTINGS.loadFailed,
  );
  // Only the organisation view offers to connect its code host.
  const integration = query.repositoryId
    ? null
    : loadIntegration(api, query.integrationName ?? DEFAULT_SETTINGS_PROVIDER);
  return combineSettingsPage(templates, settings, integration, query.integrationName);
}
