/**
 * The sandbox code host: without a GitHub App, Connect leads to our own /sandbox/install page (the
 * stand-in for GitHub's "Install the app" page) with a made-up installation id, and setting that up
 * imports a few sample repositories (shared/sandbox.ts), so the installation flow and the dashboard
 * work on one machine with no GitHub. Its people (SANDBOX_PEOPLE) are the contributors it imports
 * and the accounts a lookup by username finds.
 */
import { randomBytes } from "node:crypto";
import {
  isSandboxInstallationId,
  SANDBOX_ACTIVE_PEOPLE,
  SANDBOX_INSTALL_PATH,
  SANDBOX_INSTALLATION_PREFIX,
  SANDBOX_PEOPLE,
  SANDBOX_REPOSITORIES,
  type SandboxPerson,
} from "../../shared/sandbox.ts";
import { type CodeHost, type CodeHostPerson, UnknownInstallationError } from "./code-host.ts";

const DAY_MS = 86_400_000;

function sandboxInstallation(installationId: string): void {
  if (!isSandboxInstallationId(installationId)) {
    throw new UnknownInstallationError("This is not a sandbox installation.");
  }
}

/** Activity is counted back from now, so the sandbox's people stay recently active. */
function personOf(person: SandboxPerson, now: number, withActivity: boolean): CodeHostPerson {
  const { active_days_ago: daysAgo, ...account } = person;
  return {
    ...account,
    last_activity:
      withActivity && daysAgo !== null ? new Date(now - daysAgo * DAY_MS - 3_600_000).toISOString() : null,
  };
}

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
      sandboxInstallation(installationId);
      return SANDBOX_REPOSITORIES.map((repository) => ({ ...repository }));
    },
    async contributors(installationId, _repositories) {
      sandboxInstallation(installationId);
      const now = Date.now();
      return SANDBOX_PEOPLE.slice(0, SANDBOX_ACTIVE_PEOPLE).map((person) => personOf(person, now, true));
    },
    async lookupUser(installationId, username) {
      sandboxInstallation(installationId);
      // Usernames are case-insensitive, as on GitHub.
      const person = SANDBOX_PEOPLE.find((entry) => entry.login === username.toLowerCase());
      return person ? personOf(person, Date.now(), false) : null;
    },
  };
}
