/** How a code host's failure is answered, by every route that calls one. */

import { INSTALLATION } from "../../shared/contract/code-hosts.ts";
import { HttpError } from "../http/errors.ts";
import { AzureDevOpsError } from "./azure-devops/connect.ts";
import { InstallationNotProvenError, UnknownInstallationError } from "./code-host.ts";
import { GitHubError } from "./github/api-client.ts";

/** The code host's failure as an answer; never 401, which the gateway would read as a dead session. */
export function codeHostFailure(error: unknown): unknown {
  if (error instanceof UnknownInstallationError) return new HttpError(400, { error: error.message });
  // One answer whatever failed (the code, or the installation is not the user's): nothing to probe.
  if (error instanceof InstallationNotProvenError) {
    return new HttpError(403, { error: INSTALLATION.notProven });
  }
  if (error instanceof AzureDevOpsError) {
    if (error.reason === "refused" || error.reason === "not-found") {
      return new HttpError(400, { error: error.message });
    }
    if (error.reason === "unavailable") {
      return new HttpError(503, { error: "Azure DevOps could not be reached. Please try again." });
    }
    return new HttpError(502, { error: "Azure DevOps answered with an error. Please try again." });
  }
  if (error instanceof GitHubError && error.reason === "unavailable") {
    return new HttpError(503, { error: "GitHub could not be reached. Please try again." });
  }
  if (error instanceof GitHubError) {
    return new HttpError(502, { error: "GitHub answered with an error. Please try again." });
  }
  return error;
}
