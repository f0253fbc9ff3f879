/**
 * The sandbox code host: without a GitHub App, Connect leads to our own /sandbox/install page (the
 * stand-in for GitHub's "Install the app" page) with a made-up installation id, and setting that up
 * imports a few sample repositories (shared/sandbox.ts), so the installation flow and the dashboard
 * work on one machine with no GitHub. Its people (SANDBOX_PEOPLE) are the contributors it imports
 * and the accounts a lookup by username finds.
 *
 * Like GitHub's setup redirect, the sandbox's carries a `code` that proves who may connect the
 * installation (decision 027): the Connect link's code is an HMAC the backend made of the
 * organisation, the user, the new installation id and an expiry, so no one else can claim (or
 * block with a 409) that installation, and an old link stops working.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  isSandboxInstallationId,
  SANDBOX_INSTALL_PATH,
  SANDBOX_INSTALLATION_PREFIX,
} from "../../../shared/contract/sandbox.ts";
import {
  SANDBOX_ACTIVE_PEOPLE,
  SANDBOX_PEOPLE,
  SANDBOX_REPOSITORIES,
  type SandboxPerson,
} from "../../../shared/sandbox-samples.ts";
import {
  type CodeHostPerson,
  type InstallationFlow,
  InstallationNotProvenError,
  type Installer,
  UnknownInstallationError,
} from "../code-host.ts";

const DAY_MS = 86_400_000;
/** How long a Connect link's code works: enough to read the install page, not to be kept. */
export const SANDBOX_CODE_TTL_MS = 30 * 60_000;
const CODE = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

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

export interface SandboxInstallationsOptions {
  publicOrigin: string;
  /** The key Connect links' codes are signed with: stable across restarts and instances. */
  codeKey: Buffer;
  now?: () => number;
}

export function createSandboxInstallations({
  publicOrigin,
  codeKey,
  now = Date.now,
}: SandboxInstallationsOptions): InstallationFlow {
  const signature = (installationId: string, installer: Installer, expires: number) =>
    createHmac("sha256", codeKey)
      .update(
        JSON.stringify(["sandbox-installation", installer.orgId, installer.userId, installationId, expires]),
      )
      .digest();

  return {
    kind: "sandbox",
    async installationUrl(installer) {
      const installationId = `${SANDBOX_INSTALLATION_PREFIX}${randomBytes(8).toString("hex")}`;
      const expires = now() + SANDBOX_CODE_TTL_MS;
      const url = new URL(SANDBOX_INSTALL_PATH, publicOrigin);
      url.search = new URLSearchParams({
        installation_id: installationId,
        code: `${expires}.${signature(installationId, installer, expires).toString("base64url")}`,
      }).toString();
      return url.toString();
    },
    async proveInstallation(installationId, code, installer) {
      const [, expires, mac] = CODE.exec(code) ?? [];
      const expected = expires && signature(installationId, installer, Number(expires));
      const given = mac && Buffer.from(mac, "base64url");
      if (!expected || !given || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new InstallationNotProvenError("This code was not made for this installation and user.");
      }
      if (Number(expires) < now()) throw new InstallationNotProvenError("This code has expired.");
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
    async knownPeople(installationId) {
      sandboxInstallation(installationId);
      const now = Date.now();
      return SANDBOX_PEOPLE.map((person) => personOf(person, now, false));
    },
  };
}
