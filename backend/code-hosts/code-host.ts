/**
 * A code host, as every host folder implements it once (`githubCodeHost`, `azureDevOpsCodeHost`,
 * `sandboxCodeHost`; registry.ts lists them): its name, how an organisation connects it, which
 * projects it reviews and the review engine's port (review-host.ts) to one of them
 * (docs/decisions/040-backend-layout.md).
 */

import type { Logger } from "../../shared/node/logging.ts";
import type { BackendConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { ProjectRow } from "../review/pipeline/pipeline.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import type { AzureDevOpsProject } from "./azure-devops/connect.ts";
import type { GitHubReviewHostFor } from "./github/review-adapter.ts";
import type { ReviewHost } from "./review-host.ts";

export interface CodeHost {
  /** Which host: also its folder's name. */
  readonly name: "github" | "azure-devops" | "sandbox";
  /**
   * The integration its connections and projects are stored under (`integrations.name`,
   * `projects.integration_name`); the sandbox's is GitHub's, which it stands in for.
   */
  readonly integration: string;
  /** How an organisation connects it: an app's installation, or a form with a token. */
  readonly connect: InstallationConnect | TokenConnect;
  /** Whether this host reviews the project's pull requests. */
  claims(project: Pick<ProjectRow, "integration_name" | "properties">): boolean;
  /** The host's page of one of the repository's commits; null where the host has none. */
  commitUrl(project: Pick<ProjectRow, "external_link">, sha: string): string | null;
  /** The review engine's port to the project's repository, for one run. */
  reviewHost(project: ProjectRow, deps: ReviewHostDeps): Promise<ReviewHost>;
}

/**
 * A commit's page on hosts that serve it under the repository's page (`external_link`), as GitHub
 * (…/{owner}/{repository}/commit/{sha}) and Azure DevOps (…/_git/{repository}/commit/{sha}) do.
 */
export const commitUnderRepositoryPage: CodeHost["commitUrl"] = (project, sha) =>
  `${project.external_link}/commit/${encodeURIComponent(sha)}`;

/**
 * Connected by installing an app: Connect sends the browser to the host, which sends it back to
 * /installation with an installation id (GitHub's App, and the sandbox standing in for it).
 */
export interface InstallationConnect {
  readonly kind: "installation";
  /** Its installation flow with this deployment's settings; undefined when they do not set it up. */
  installations(config: ConnectConfig): Promise<InstallationFlow | undefined>;
}

/**
 * Connected with a setup form and a personal access token (Azure DevOps): the route seals the
 * token and stores the setup once the host accepted it.
 */
export interface TokenConnect {
  readonly kind: "token";
  /**
   * Checks the token against the project the form names and lists its repositories, with the
   * project's id; nothing is stored. Throws the host's error for a refused token or an unknown
   * project (failures.ts turns it into an answer).
   */
  repositories(target: AzureDevOpsProject): Promise<{ projectId: string; repositories: Repository[] }>;
}

/** The settings an installation flow is made with. */
export type ConnectConfig = Pick<BackendConfig, "github" | "publicOrigin" | "secrets">;

/** What a host's review adapter may use. */
export interface ReviewHostDeps {
  db: Db;
  /** Opens the Azure DevOps personal access token. */
  secrets: SecretBox;
  logger: Logger;
  /** The GitHub App's hosts (github/review-adapter.ts); unset when no App is configured (the sandbox stands in). */
  github: GitHubReviewHostFor | undefined;
}

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

/**
 * An installation flow: the GitHub App's (github/connect.ts) when one is configured, else the
 * sandbox's (sandbox/connect.ts), so a local install connects and shows repositories without
 * GitHub (docs/decisions/009-code-hosts.md); registry.ts chooses.
 */
export interface InstallationFlow {
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
