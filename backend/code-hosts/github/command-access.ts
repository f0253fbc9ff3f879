/**
 * Who may command the bot on GitHub: people with write access to the repository (admin, maintain
 * or write), as GitHub's permission API says through the installation
 * (`GET /repos/{owner}/{repo}/collaborators/{username}/permission`; its `permission` counts
 * maintain as write). `author_association` in the comment is not enough: an organisation MEMBER or
 * a COLLABORATOR may have read or triage access only. Asked while GitHub waits for the webhook's
 * answer, so no throttling waits here: a failure answers the delivery with an error instead.
 */
import { createPrivateKey } from "node:crypto";
import { App } from "@octokit/app";
import type { Octokit } from "@octokit/rest";
import { GitHubError, gitHubErrorOf, octokitAt } from "./api-client.ts";

/** Whether `login` may command reviews on the repository `fullName` of the installation. */
export type CommandAccess = (installationId: string, fullName: string, login: string) => Promise<boolean>;

/** GitHub's classic levels that include pushing: maintain answers as write. */
const WRITE_LEVELS = new Set(["admin", "write"]);

export function githubCommandAccess(settings: {
  appId: string;
  privateKey: string;
  apiUrl: string;
}): CommandAccess {
  const privateKey = createPrivateKey(settings.privateKey)
    .export({ type: "pkcs8", format: "pem" })
    .toString();
  const app = new App({ appId: settings.appId, privateKey, Octokit: octokitAt(settings.apiUrl) });

  return async (installationId, fullName, login) => {
    const [owner = "", repo = ""] = fullName.split("/");
    try {
      const octokit = (await app.getInstallationOctokit(Number(installationId))) as unknown as Octokit;
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner,
        repo,
        username: login,
      });
      return WRITE_LEVELS.has(data.permission);
    } catch (error) {
      const failure = gitHubErrorOf(error, "collaborator permission");
      // 404: GitHub knows no such user (or the repository left the installation): no access.
      if (failure instanceof GitHubError && failure.reason === "not-found") return false;
      throw failure;
    }
  };
}
