/**
 * The sandbox code host: without a GitHub App, Connect leads to our own /sandbox/install page (the
 * stand-in for GitHub's "Install the app" page) with a made-up installation id, and setting that up
 * imports a few sample repositories (shared/sandbox.ts), so the installation flow and the dashboard
 * work on one machine with no GitHub.
 */
import { randomBytes } from "node:crypto";
import {
  isSandboxInstallationId,
  SANDBOX_INSTALL_PATH,
  SANDBOX_INSTALLATION_PREFIX,
  SANDBOX_REPOSITORIES,
} from "../../shared/sandbox.ts";
import { type CodeHost, UnknownInstallationError } from "./code-host.ts";

export function createSandboxCodeHost(publicOrigin: string): CodeHost {
  return {
    kind: "sandbox",
    async installationUrl() {
      const url = new URL(SANDBOX_INSTALL_PATH, publicOrigin);
      url.search = new URLSearchParams({
        installation_id: `${SANDBOX_INSTALLATION_PREFIX}${randomBytes(8).toString("hex")}`,
      }).toString();
      return url.toString();
    },
    async repositories(installationId) {
      if (!isSandboxInstallationId(installationId)) {
        throw new UnknownInstallationError("This is not a sandbox installation.");
      }
      return SANDBOX_REPOSITORIES.map((repository) => ({ ...repository }));
    },
  };
}
