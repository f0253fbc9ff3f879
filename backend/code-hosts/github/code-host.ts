/**
 * GitHub as a code host: connected by installing the GitHub App (connect.ts), its pull requests
 * reviewed through the App's installation (review-adapter.ts), its events taken by
 * webhook-route.ts.
 */
import { GITHUB_INTEGRATION } from "../catalogue.ts";
import { type CodeHost, commitUnderRepositoryPage } from "../code-host.ts";
import { createGitHubApp } from "./connect.ts";

export const githubCodeHost = {
  name: "github",
  integration: GITHUB_INTEGRATION,
  connect: {
    kind: "installation",
    // Without an App the sandbox stands in (registry.ts, docs/decisions/009-code-hosts.md).
    installations: async ({ github }) =>
      github.app && createGitHubApp({ ...github.app, apiUrl: github.apiUrl, oauthUrl: github.oauthUrl }),
  },
  claims: (project) => project.integration_name === GITHUB_INTEGRATION,
  commitUrl: commitUnderRepositoryPage,
  async reviewHost(project, { github }) {
    if (!github) throw new Error("No GitHub App is configured to review this repository");
    const fullName = project.properties.full_name;
    if (!fullName) throw new Error("The project does not name its GitHub repository");
    return github(project.integration_key, fullName);
  },
} satisfies CodeHost;
