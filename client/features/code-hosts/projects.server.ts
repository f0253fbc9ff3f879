/** The repository list of /home, a page at a time, loaded on the server (docs/product.md#home). */

import { ERRORS } from "../../../shared/contract/accounts.ts";
import type { Project } from "../../../shared/contract/code-hosts.ts";
import { HOME_PAGE_SIZE, type PageInfo } from "../../../shared/contract/paging.ts";
import type { SettingsProvider } from "../../../shared/settings-catalogue.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import type { ListState } from "../../lib/list-url";
import { type LoadResult, settle } from "../../lib/load-result.server";

export type ProjectsPage = { projects: Project[]; page: PageInfo };
export type ProjectsResult = LoadResult<ProjectsPage>;

export function loadProjects(
  api: Pick<ApiClient, "getProjects">,
  state: ListState,
  codeHost: SettingsProvider,
): Promise<ProjectsResult> {
  return settle(
    api
      .getProjects({ page: state.page, pageSize: HOME_PAGE_SIZE, search: state.search }, codeHost)
      .then((response) => ({ projects: response.data.projects, page: response.page })),
    ERRORS.loadProjects,
  );
}
