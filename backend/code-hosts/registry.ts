/**
 * Which review host reviews a project: the first adapter in REVIEW_HOST_ADAPTERS that claims the
 * project builds it. Each code host registers one entry there; the pipeline asks only
 * `reviewHostFor`.
 */

import type { Logger } from "../../shared/node/logging.ts";
import type { Db } from "../db/database.ts";
import type { ProjectRow, ReviewHostFor } from "../review/pipeline/pipeline.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import { azureDevOpsReviewHost } from "./azure-devops/review-adapter.ts";
import { AZURE_DEVOPS_INTEGRATION, GITHUB_INTEGRATION } from "./catalogue.ts";
import type { GitHubReviewHostFor } from "./github/review-adapter.ts";
import type { ReviewHost } from "./review-host.ts";
import { createSandboxReviewHost } from "./sandbox/review-adapter.ts";

export interface ReviewHostDeps {
  db: Db;
  /** Opens the Azure DevOps personal access token. */
  secrets: SecretBox;
  logger: Logger;
  /** The GitHub App's hosts (github/review-adapter.ts); unset when no App is configured (the sandbox stands in). */
  github: GitHubReviewHostFor | undefined;
}

export interface ReviewHostAdapter {
  name: string;
  /** Whether this adapter reviews the project's pull requests. */
  claims(project: ProjectRow): boolean;
  build(project: ProjectRow, deps: ReviewHostDeps): Promise<ReviewHost>;
}

const githubAdapter: ReviewHostAdapter = {
  name: "github",
  claims: (project) => project.integration_name === GITHUB_INTEGRATION,
  async build(project, { github }) {
    if (!github) throw new Error("No GitHub App is configured to review this repository");
    const fullName = project.properties.full_name;
    if (!fullName) throw new Error("The project does not name its GitHub repository");
    return github(project.integration_key, fullName);
  },
};

/** The sandbox's sample repositories (integration "github", imported with `sandbox: true`). */
const sandboxAdapter: ReviewHostAdapter = {
  name: "sandbox",
  claims: (project) => project.integration_name === GITHUB_INTEGRATION && project.properties.sandbox === true,
  build: async (project, { db }) => createSandboxReviewHost(db, project),
};

const azureDevOpsAdapter: ReviewHostAdapter = {
  name: "azure-devops",
  claims: (project) => project.integration_name === AZURE_DEVOPS_INTEGRATION,
  build: (project, deps) => azureDevOpsReviewHost(deps, project),
};

/**
 * Registration point: one adapter per code host, most specific first. The sandbox's installations
 * are integration "github" with a `sandbox-` key, so its adapter goes before GitHub's.
 */
export const REVIEW_HOST_ADAPTERS: ReviewHostAdapter[] = [sandboxAdapter, githubAdapter, azureDevOpsAdapter];

export function reviewHostFor(deps: ReviewHostDeps): ReviewHostFor {
  return async (project) => {
    const adapter = REVIEW_HOST_ADAPTERS.find((candidate) => candidate.claims(project));
    if (!adapter) throw new Error(`No review host for integration ${project.integration_name}`);
    return adapter.build(project, deps);
  };
}
