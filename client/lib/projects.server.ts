/** The repository list of /home, loaded on the server (docs/product.md#home). */
import type { ApiClient } from "../../shared/api-client.ts";
import type { Project } from "../../shared/contract.ts";
import { ERRORS } from "../../shared/messages.ts";
import { type LoadResult, settle } from "./load-result.server";

export type ProjectsResult = LoadResult<Project[]>;

export function loadProjects(api: Pick<ApiClient, "getProjects">): Promise<ProjectsResult> {
  return settle(
    api.getProjects().then((response) => response.data.projects),
    ERRORS.loadProjects,
  );
}
