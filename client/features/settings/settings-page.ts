/**
 * What /settings shows (docs/product.md#settings), worked out the same way by the server loader and
 * by the browser's client loader: the query it was opened with, and its three loads combined into
 * one result. Plain code and types only, so the page's first load stays light.
 */
import type { Integration } from "../../../shared/contract/code-hosts.ts";
import type { SettingsData, SettingTemplate } from "../../../shared/contract/settings.ts";
import { SETTINGS } from "../../../shared/contract/settings.ts";
import { DEFAULT_SETTINGS_PROVIDER } from "../../../shared/settings-catalogue.ts";
import type { LoadResult } from "../../lib/load-result.server";

/** The page's query: a repository's settings with `repositoryId`, else the organisation's. */
export interface SettingsPageQuery {
  repositoryId: string | null;
  /**
   * The organisation view's code host (`github` unless another is asked for); for a repository, its
   * code host as the link gave it, if it did (the backend then checks it).
   */
  integrationName: string | null;
  integrationKey: string | null;
}

function present(search: URLSearchParams, name: string): string | null {
  const value = search.get(name)?.trim();
  return value ? value : null;
}

export function settingsPageQuery(search: URLSearchParams): SettingsPageQuery {
  const repositoryId = present(search, "repositoryId");
  const integrationName = present(search, "integrationName");
  return {
    repositoryId,
    integrationName: integrationName ?? (repositoryId ? null : DEFAULT_SETTINGS_PROVIDER),
    integrationKey: present(search, "integrationKey"),
  };
}

export function settingsTitle(query: Pick<SettingsPageQuery, "repositoryId">): string {
  return query.repositoryId ? SETTINGS.repositoryTitle : SETTINGS.organizationTitle;
}

/** The query string of GET /api/settings and PUT /api/settings/{category} for this page. */
export function settingsCallQuery(query: SettingsPageQuery, { withRepository = true } = {}): string {
  const params = new URLSearchParams();
  if (withRepository && query.repositoryId) params.set("repositoryId", query.repositoryId);
  if (query.integrationKey) params.set("integrationKey", query.integrationKey);
  if (query.integrationName) params.set("integrationName", query.integrationName);
  return params.toString();
}

export type SettingsPage =
  /** The organisation view of a code host the organisation has not connected. */
  | { kind: "connect"; integration: Integration }
  /** The organisation view of a name no integration has. */
  | { kind: "unknown-integration"; integrationName: string }
  /** The repository view of an id no repository of the organisation has. */
  | { kind: "unknown-repository" }
  | { kind: "ready"; templates: SettingTemplate[]; settings: SettingsData };

/**
 * The three loads as one result: a 401 from any ends the session; an organisation view of an
 * integration that is not connected needs only the integration; otherwise the first failure names
 * itself ("Failed to load settings templates", "Failed to load settings").
 */
export async function combineSettingsPage(
  templates: Promise<LoadResult<SettingTemplate[]>>,
  settings: Promise<LoadResult<SettingsData | null>>,
  integration: Promise<LoadResult<Integration | null>> | null,
  integrationName: string | null,
): Promise<LoadResult<SettingsPage>> {
  const [templatesResult, settingsResult, integrationResult] = await Promise.all([
    templates,
    settings,
    integration,
  ]);
  const results = [templatesResult, settingsResult, integrationResult];
  if (results.some((result) => result?.status === "unauthorized")) return { status: "unauthorized" };
  if (integrationResult?.status === "ok") {
    const found = integrationResult.data;
    if (!found) {
      return { status: "ok", data: { kind: "unknown-integration", integrationName: integrationName ?? "" } };
    }
    if (!found.isActive) return { status: "ok", data: { kind: "connect", integration: found } };
  }
  if (settingsResult.status === "ok" && !settingsResult.data)
    return { status: "ok", data: { kind: "unknown-repository" } };
  for (const result of results) if (result?.status === "error") return result;
  if (templatesResult.status !== "ok" || settingsResult.status !== "ok" || !settingsResult.data) {
    return { status: "error", message: SETTINGS.loadFailed };
  }
  return {
    status: "ok",
    data: { kind: "ready", templates: templatesResult.data, settings: settingsResult.data },
  };
}
