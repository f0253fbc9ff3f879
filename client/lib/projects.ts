/**
 * Loading the repository list for /home. The loader hands the page a promise that never rejects, so
 * the three outcomes the page must show (list, error with Retry, session gone) stream through one
 * <Await> and keep their meaning (a rejected promise would lose the HTTP status on the way).
 */
import { type ApiClient, ApiError } from "../../shared/api-client.ts";
import type { Project } from "../../shared/contract.ts";
import { ERRORS } from "../../shared/messages.ts";

export type ProjectsResult =
  | { status: "ok"; projects: Project[] }
  | { status: "error"; message: string }
  | { status: "unauthorized" };

export async function loadProjects(api: Pick<ApiClient, "getProjects">): Promise<ProjectsResult> {
  try {
    const response = await api.getProjects();
    return { status: "ok", projects: response.data.projects };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { status: "unauthorized" };
    return { status: "error", message: ERRORS.loadProjects };
  }
}

/** /settings for one repository (spec section 2, /home: the card's settings icon). */
export function repositorySettingsHref(project: Project): string {
  const query = new URLSearchParams({
    repositoryId: project.id,
    integrationKey: project.integration_key,
    integrationName: project.integration_name,
    integrationType: project.integration_type,
  });
  return `/settings?${query}`;
}
