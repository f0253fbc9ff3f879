/**
 * The code hosts (code-host.ts), one entry per host folder, and the choices made among them:
 * which host reviews a project, and whose installation flow the GitHub integration connects with.
 */
import type { ProjectRow, ReviewHostFor } from "../review/pipeline/pipeline.ts";
import { azureDevOpsCodeHost } from "./azure-devops/code-host.ts";
import type { CodeHost, ConnectConfig, InstallationFlow, ReviewHostDeps } from "./code-host.ts";
import { githubCodeHost } from "./github/code-host.ts";
import { sandboxCodeHost } from "./sandbox/code-host.ts";

/**
 * Registration point, most specific first: the sandbox's projects are integration "github" too,
 * so the sandbox claims before GitHub does.
 */
export const CODE_HOSTS: readonly CodeHost[] = [sandboxCodeHost, githubCodeHost, azureDevOpsCodeHost];

/** The code host that reviews the project's pull requests. */
function codeHostOf(project: Pick<ProjectRow, "integration_name" | "properties">): CodeHost | undefined {
  return CODE_HOSTS.find((candidate) => candidate.claims(project));
}

/** The host's page of a commit of the project's repository; null where there is none. */
export function commitUrlOf(
  project: Pick<ProjectRow, "integration_name" | "properties" | "external_link">,
  sha: string,
): string | null {
  return codeHostOf(project)?.commitUrl(project, sha) ?? null;
}

/** The review engine's host lookup: the first code host that claims the project builds its port. */
export function reviewHostFor(deps: ReviewHostDeps): ReviewHostFor {
  return async (project) => {
    const host = codeHostOf(project);
    if (!host) throw new Error(`No review host for integration ${project.integration_name}`);
    return host.reviewHost(project, deps);
  };
}

/**
 * The GitHub integration's installation flow, chosen once at start: the GitHub App's when one is
 * configured, else the sandbox's, so connecting works on one machine (docs/decisions/009-code-hosts.md).
 */
export async function installationFlow(config: ConnectConfig): Promise<InstallationFlow> {
  return (
    (await githubCodeHost.connect.installations(config)) ?? sandboxCodeHost.connect.installations(config)
  );
}
