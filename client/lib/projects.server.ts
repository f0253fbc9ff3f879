/**
 * Loading the repository list for /home, on the server: the browser never calls the backend for it,
 * so the API client and zod stay out of the page's bundle. The loader hands the page a promise that
 * never rejects, so the three outcomes the page must show (list, error with Retry, session gone)
 * stream through one <Await> and keep their meaning (a rejected promise would lose the HTTP status
 * on the way).
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
