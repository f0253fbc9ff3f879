/**
 * The settings calls the browser makes (docs/product.md#settings): the page's loads on client
 * navigations (the templates from the cache once loaded) and the saves of its switches.
 *
 * Only ever imported on demand (`settingsApi`), never statically, to keep the call code off the
 * first load (docs/decisions/006-page-weight.md).
 */

import { API_PATHS } from "../../../shared/contract/common.ts";
import {
  SETTINGS,
  type SettingsUpdateRequest,
  type SettingsUpdateResponse,
  type settingsUpdateResponseSchema,
} from "../../../shared/contract/settings.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";
import type { LoadResult } from "../../lib/load-result.server";
import { loadSettings } from "./settings-load";
import { type SettingsPage, type SettingsPageQuery, settingsCallQuery } from "./settings-page";
import { cachedTemplates, forgetTemplates, keepTemplates } from "./settings-templates-cache";

const api = browserApiClient();

/** What the page shows for `query`, loaded from the browser (a client navigation or a Retry). */
export function loadSettingsPage(query: SettingsPageQuery): Promise<LoadResult<SettingsPage>> {
  return loadSettings(api, query, { cached: cachedTemplates(), keep: keepTemplates });
}

/** Whose values a save writes: the scope the page's values were loaded for. */
export interface SaveScope {
  integrationName: string;
  integrationKey: string | null;
  repositoryId: string | null;
}

export type SaveOutcome =
  | { status: "saved"; data: SettingsUpdateResponse["data"] }
  /** The backend refused the values (4xx); `message` is its own when it gave one. */
  | { status: "refused"; message: string }
  /** Nothing or a failing server answered (network, 5xx): trying again may work. */
  | { status: "failed" }
  | { status: "unauthorized" };

/** PUT /api/settings/{category}: the whole category as this level holds it (null: inherited). */
export async function saveSettingsCategory(
  scope: SaveScope,
  category: string,
  value: SettingsUpdateRequest["value"],
): Promise<SaveOutcome> {
  // The repository goes in the body; the query names the code host.
  const query = settingsCallQuery(scope, { withRepository: false });
  const body: SettingsUpdateRequest = scope.repositoryId
    ? { value, repositoryId: scope.repositoryId }
    : { value };
  try {
    const answer = await api.call<typeof settingsUpdateResponseSchema>(
      `${API_PATHS.settingsCategory(category)}?${query}`,
      { method: "PUT", body },
    );
    return { status: "saved", data: answer.data };
  } catch (error) {
    if (!(error instanceof ApiError)) return { status: "failed" };
    if (error.status === 401) return { status: "unauthorized" };
    if (error.unreachable || error.status >= 500 || error.status === 429) return { status: "failed" };
    // The templates this page has may be out of date: load them again next time.
    forgetTemplates();
    return { status: "refused", message: error.body ? error.message : SETTINGS.updateFailed };
  }
}
