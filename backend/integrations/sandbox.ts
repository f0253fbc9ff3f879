/**
 * The sandbox code host: without a GitHub App, Connect leads straight to our own /installation
 * page with a made-up installation id, and setting that up imports a few sample repositories, so
 * the installation flow and the dashboard work on one machine with no GitHub.
 */
import { randomBytes } from "node:crypto";
import { type CodeHost, type Repository, UnknownInstallationError } from "./code-host.ts";

export const SANDBOX_INSTALLATION_PREFIX = "sandbox-";
const SANDBOX_INSTALLATION = /^sandbox-[0-9a-f]{1,64}$/;
const SANDBOX_OWNER = "argus-sandbox";

function sample(
  name: string,
  description: string | null,
  options: { private?: boolean; fork?: boolean; default_branch?: string } = {},
): Repository {
  const full_name = `${SANDBOX_OWNER}/${name}`;
  return {
    // The same ids for every sandbox installation: setting it up again updates, never duplicates.
    id: `${SANDBOX_INSTALLATION_PREFIX}${name}`,
    name,
    full_name,
    private: options.private ?? false,
    description,
    default_branch: options.default_branch ?? "main",
    fork: options.fork ?? false,
    html_url: `https://github.com/${full_name}`,
  };
}

export const SANDBOX_REPOSITORIES: readonly Repository[] = [
  sample("web-app", "The customer-facing web application", { private: true }),
  sample("api-server", "REST API and background workers", { private: true }),
  sample("mobile-client", null, { private: true, default_branch: "develop" }),
  sample("design-system", "Shared UI components"),
  sample("docs", "Public documentation site", { fork: true }),
];

export function createSandboxCodeHost(publicOrigin: string): CodeHost {
  return {
    kind: "sandbox",
    async installationUrl() {
      const url = new URL("/installation", publicOrigin);
      url.search = new URLSearchParams({
        setup_action: "install",
        installation_id: `${SANDBOX_INSTALLATION_PREFIX}${randomBytes(8).toString("hex")}`,
        code: "sandbox",
      }).toString();
      return url.toString();
    },
    async repositories(installationId) {
      if (!SANDBOX_INSTALLATION.test(installationId)) {
        throw new UnknownInstallationError("This is not a sandbox installation.");
      }
      return SANDBOX_REPOSITORIES.map((repository) => ({ ...repository }));
    },
  };
}
