/** /settings loaded on the server, for the first HTML (docs/product.md#settings). */
import type { ApiClient } from "../../lib/api-client.ts";
import type { LoadResult } from "../../lib/load-result.server";
import { loadSettings } from "./settings-load";
import type { SettingsPage, SettingsPageQuery } from "./settings-page";

export function loadSettingsPage(
  api: Pick<ApiClient, "request" | "getIntegration">,
  query: SettingsPageQuery,
): Promise<LoadResult<SettingsPage>> {
  return loadSettings(api, query);
}
