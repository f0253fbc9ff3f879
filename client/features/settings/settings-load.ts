/**
 * The loads of /settings (docs/product.md#settings), made the same way by the server loader
 * (settings.server) and by the browser's client loader (settings-api): the browser imports it only
 * on demand, with settings-api.
 */

import { INTEGRATIONS } from "../../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import {
  ACTIVE_SETTING_TEMPLATES_PATH,
  SETTINGS,
  type SettingTemplate,
  type settingsResponseSchema,
  type settingTemplatesResponseSchema,
} from "../../../shared/contract/settings.ts";
import { DEFAULT_SETTINGS_PROVIDER } from "../../../shared/settings-catalogue.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import type { LoadResult } from "../../lib/load-result.server";
import { nullOn404, settle } from "../../lib/settle";
import {
  combineSettingsPage,
  type SettingsPage,
  type SettingsPageQuery,
  settingsCallQuery,
} from "./settings-page";

/**
 * What the page shows for `query`. The templates are loaded unless `templates.cached` has them;
 * `templates.keep` is given the ones loaded.
 */
export function loadSettings(
  api: Pick<ApiClient, "call" | "getIntegration">,
  query: SettingsPageQuery,
  templates: { cached?: SettingTemplate[]; keep?: (loaded: SettingTemplate[]) => void } = {},
): Promise<LoadResult<SettingsPage>> {
  const { cached, keep } = templates;
  const templatesLoad = cached
    ? Promise.resolve({ status: "ok" as const, data: cached })
    : settle(
        api.call<typeof settingTemplatesResponseSchema>(ACTIVE_SETTING_TEMPLATES_PATH).then((answer) => {
          keep?.(answer.data);
          return answer.data;
        }),
        SETTINGS.templatesLoadFailed,
      );
  // A 404 is a repository id the organisation does not have: the page says so.
  const settings = settle(
    nullOn404(
      api
        .call<typeof settingsResponseSchema>(`${API_PATHS.settings}?${settingsCallQuery(query)}`)
        .then((answer) => answer.data),
    ),
    SETTINGS.loadFailed,
  );
  // Only the organisation view offers to connect its code host.
  const integration = query.repositoryId
    ? null
    : settle(
        nullOn404(
          api
            .getIntegration(query.integrationName ?? DEFAULT_SETTINGS_PROVIDER)
            .then((answer) => answer.data),
        ),
        INTEGRATIONS.loadFailed,
      );
  return combineSettingsPage(templatesLoad, settings, integration, query.integrationName);
}
