/**
 * Azure DevOps service-hook events as its "Web Hooks" consumer posts them (resource version 1.0):
 * the envelope with its `resourceContainers` (ids and base URLs), and a pull request or a
 * pull-request comment as resource, after the samples of Azure DevOps' service-hook event reference.
 */
import { randomUUID } from "node:crypto";

export interface PullRequestOptions {
  /** The organisation (collection) URL the event comes from, as its `baseUrl`s and URLs name it. */
  organizationUrl: string;
  /** The id of the repository's project. */
  projectId: string;
  repositoryId: string;
  pullRequestId: number;
  status?: "active" | "abandoned" | "completed";
  sourceCommit?: string;
  targetCommit?: string;
}

function pullRequest(options: PullRequestOptions) {
  const collection = options.organizationUrl.replace(/\/+$/, "");
  const repositoryUrl = `${collection}/${options.projectId}/_apis/git/repositories/${options.repositoryId}`;
  return {
    repository: {
      id: options.repositoryId,
      name: "fabrikam-web",
      url: repositoryUrl,
      project: {
        id: options.projectId,
        name: "Fabrikam Fiber",
        url: `${collection}/_apis/projects/${options.projectId}`,
        state: "wellFormed",
      },
      defaultBranch: "refs/heads/main",
      remoteUrl: `${collection}/Fabrikam%20Fiber/_git/fabrikam-web`,
    },
    pullRequestId: options.pullRequestId,
    status: options.status ?? "active",
    createdBy: { id: randomUUID(), displayName: "Jamal Hartnett", uniqueName: "jamal@fabrikam.example" },
    creationDate: "2026-11-20T16:55:46.589889Z",
    title: "Add the settings page",
    description: "Adds the settings page.",
    sourceRefName: "refs/heads/settings",
    targetRefName: "refs/heads/main",
    mergeStatus: "succeeded",
    mergeId: randomUUID(),
    lastMergeSourceCommit: {
      commitId: options.sourceCommit ?? "53d54ac915144006c2c9e90d2c7d3880920db49c",
      url: `${repositoryUrl}/commits/${options.sourceCommit ?? "53d54ac915144006c2c9e90d2c7d3880920db49c"}`,
    },
    lastMergeTargetCommit: {
      commitId: options.targetCommit ?? "a511f535b1ea495ee0c903badb68fbc83772c882",
      url: `${repositoryUrl}/commits/${options.targetCommit ?? "a511f535b1ea495ee0c903badb68fbc83772c882"}`,
    },
    reviewers: [],
    isDraft: false,
    url: `${repositoryUrl}/pullRequests/${options.pullRequestId}`,
  };
}

/** Where the event happened: each container with its id and base URL (the collection's, with a slash). */
function containers(options: PullRequestOptions) {
  const baseUrl = `${options.organizationUrl.replace(/\/+$/, "")}/`;
  return {
    collection: { id: randomUUID(), baseUrl },
    account: { id: randomUUID(), baseUrl },
    project: { id: options.projectId, baseUrl },
  };
}

function envelope(eventType: string, text: string, resource: unknown, options: PullRequestOptions) {
  return {
    subscriptionId: randomUUID(),
    notificationId: 1,
    id: randomUUID(),
    eventType,
    publisherId: "tfs",
    message: { text, html: text, markdown: text },
    detailedMessage: { text, html: text, markdown: text },
    resource,
    resourceVersion: "1.0",
    resourceContainers: containers(options),
    createdDate: "2026-11-20T16:55:47.2813828Z",
  };
}

export const pullRequestCreated = (options: PullRequestOptions) =>
  envelope(
    "git.pullrequest.created",
    "Jamal Hartnett created a new pull request",
    pullRequest(options),
    options,
  );

export const pullRequestUpdated = (options: PullRequestOptions) =>
  envelope(
    "git.pullrequest.updated",
    "Jamal Hartnett updated the source branch of pull request 1",
    pullRequest(options),
    options,
  );

/** `author`: the commenter's identity (an id the fake Azure DevOps knows, for a permission check). */
export const pullRequestCommented = (
  options: PullRequestOptions & { content: string; author?: { id: string; uniqueName: string } },
) =>
  envelope(
    "ms.vss-code.git-pullrequest-comment-event",
    "Jamal Hartnett has edited a pull request comment",
    {
      comment: {
        id: 2,
        parentCommentId: 0,
        author: {
          displayName: "Jamal Hartnett",
          ...(options.author ?? { id: randomUUID(), uniqueName: "jamal@fabrikam.example" }),
        },
        content: options.content,
        publishedDate: "2026-11-20T17:00:00.000Z",
        lastUpdatedDate: "2026-11-20T17:00:00.000Z",
        lastContentUpdatedDate: "2026-11-20T17:00:00.000Z",
        commentType: "text",
      },
      pullRequest: pullRequest(options),
    },
    options,
  );
