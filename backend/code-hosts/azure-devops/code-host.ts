/**
 * Azure DevOps as a code host: connected with a setup form and a personal access token (connect.ts
 * checks it, connection.ts keeps it sealed), its pull requests reviewed with that token
 * (review-adapter.ts), its events taken by service hooks (webhook-route.ts, service-hooks.ts).
 */
import { AZURE_DEVOPS_INTEGRATION } from "../catalogue.ts";
import { type CodeHost, commitUnderRepositoryPage } from "../code-host.ts";
import { azureDevOpsRepositories } from "./connect.ts";
import { azureDevOpsReviewHost } from "./review-adapter.ts";

export const azureDevOpsCodeHost = {
  name: "azure-devops",
  integration: AZURE_DEVOPS_INTEGRATION,
  connect: { kind: "token", repositories: azureDevOpsRepositories },
  claims: (project) => project.integration_name === AZURE_DEVOPS_INTEGRATION,
  commitUrl: commitUnderRepositoryPage,
  reviewHost: (project, deps) => azureDevOpsReviewHost(deps, project),
} satisfies CodeHost;
