/**
 * The code host behind the GitHub integration: the GitHub App (github/connect.ts) when one is
 * configured, else the sandbox (sandbox/connect.ts), so a local install connects and shows repositories
 * without GitHub (docs/decisions/009-code-hosts.md). app.ts chooses.
 */
/** A repository as the code host describes it, in GitHub's field names. */
export interface Repository {
  /** The code host's id of the repository. */
  id: string;
  name: string;
  full_name: string;
  private: boolean;
  description: string | null;
  /** Unknown when only a webhook described the repository. */
  default_branch?: string | undefined;
  fork: boolean;
  html_url: string;
}

/** A person on the code host, in GitHub's field names. */
export interface CodeHostPerson {
  /** The code host's username. */
  login: string;
  name: string | null;
  /** Their public address; null when they show none. */
  email: string | null;
  avatar_url: string | null;
  /** ISO date of their latest activity seen on the repositories; null when none was seen. */
  last_activity: string | null;
}

/** Who is connecting: the signed-in user and their organisation. */
export interface Installer {
  orgId: string;
  userId: string;
}

export interface CodeHost {
  readonly kind: "sandbox" | "github-app";
  /** Where Connect sends `installer`'s browser; the code host sends it back to /installation. */
  installationUrl(installer: Installer): Promise<string>;
  /**
   * Checks that `installer` may connect the installation, with the `code` the code host sent the
   * browser back with (docs/decisions/027-installation-ownership.md), before anything is asked
   * about the installation itself. Throws InstallationNotProvenError, the same for a bad code and
   * for an installation the user cannot reach, so ids cannot be probed.
   */
  proveInstallation(installationId: string, code: string, installer: Installer): Promise<void>;
  /**
   * The repositories an installation gives access to. Throws UnknownInstallationError for an
   * installation that does not exist, was revoked or suspended, or is not this host's.
   */
  repositories(installationId: string): Promise<Repository[]>;
  /**
   * The people active lately on `repositories` of the installation (their recent commits), each
   * once with their latest activity. Throws UnknownInstallationError as `repositories` does.
   */
  contributors(
    installationId: string,
    repositories: readonly { full_name: string }[],
  ): Promise<CodeHostPerson[]>;
  /**
   * The account `username` names, seen through the installation (GitHub: GET /users/{username});
   * null when the code host knows no such account. `last_activity` is not known this way: null.
   */
  lookupUser(installationId: string, username: string): Promise<CodeHostPerson | null>;
  /**
   * Everyone `lookupUser` would find, when the code host can list them: the sandbox's fixed people,
   * offered in the Add Contributor dialog. Null when it cannot (GitHub: any of its accounts).
   */
  knownPeople(installationId: string): Promise<CodeHostPerson[] | null>;
}

export class UnknownInstallationError extends Error {
  override name = "UnknownInstallationError";
}

/** The setup's code does not prove that the user may connect this installation. */
export class InstallationNotProvenError extends Error {
  override name = "InstallationNotProvenError";
}
