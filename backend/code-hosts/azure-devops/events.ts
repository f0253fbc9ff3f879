/**
 * Azure DevOps service-hook events for the review engine: `git.pullrequest.created` (a run
 * triggered `opened`), `git.pullrequest.updated` (`synchronize`; subscribe with the "Source branch
 * updated" filter, other updates would only repeat a review of the same head) and
 * `ms.vss-code.git-pullrequest-comment-event` (a bot command). A pull request that is no longer
 * active is not reviewed. Heads come from `lastMergeSourceCommit` and `lastMergeTargetCommit`.
 *
 * An event counts only for the integration whose hook it came through, and only when it is of that
 * integration's organisation and project (docs/decisions/028-azure-devops-tenancy.md): the
 * collection's base URL (`resourceContainers`) and the repository's URL lie under the stored
 * organisation URL, and the repository's project id is the stored project's.
 */
import { z } from "zod";
import { parseBotCommand } from "../../review/ingest/commands.ts";
import type { ReviewEvent } from "../../review/ingest/ingest.ts";
import { AZURE_DEVOPS_INTEGRATION } from "../catalogue.ts";

const commitSchema = z.object({ commitId: z.string() }).optional();

const pullRequestSchema = z.object({
  pullRequestId: z.number().int().positive(),
  status: z.string(),
  title: z.string().optional(),
  repository: z.object({
    id: z.string().min(1),
    url: z.string().optional(),
    project: z.object({ id: z.string().min(1) }),
  }),
  lastMergeSourceCommit: commitSchema,
  lastMergeTargetCommit: commitSchema,
});

const containerSchema = z.object({ id: z.string().optional(), baseUrl: z.string().optional() }).optional();

/** The envelope every service-hook event shares; `id` identifies the event across retries. */
export const serviceHookEventSchema = z.object({
  id: z.string().min(1).max(128),
  eventType: z.string().min(1).max(128),
  resource: z.unknown(),
  resourceContainers: z
    .object({ collection: containerSchema, account: containerSchema, project: containerSchema })
    .partial()
    .optional(),
});
export type ServiceHookEvent = z.infer<typeof serviceHookEventSchema>;

const commentResourceSchema = z.object({
  comment: z.object({
    content: z.string().nullable().optional(),
    author: z.object({ id: z.string().min(1) }).optional(),
  }),
  pullRequest: pullRequestSchema,
});

type PullRequest = z.infer<typeof pullRequestSchema>;

/** The integration an event came through: its organisation, and where it is in Azure DevOps. */
export interface HookIntegration {
  orgId: string;
  organizationUrl: string;
  projectId: string;
}

/** What an event asks, and for a command, who asked (their Azure DevOps identity id). */
export interface AzureDevOpsEvent {
  review: ReviewEvent;
  commenter?: { identityId: string; projectId: string; repositoryId: string } | undefined;
}

/**
 * An organisation URL in one spelling: lower case, no trailing slash, and the older
 * `https://{org}.visualstudio.com[/DefaultCollection]` as `https://dev.azure.com/{org}`, which
 * Azure DevOps Services answers for the same organisation.
 */
export function canonicalOrganizationUrl(text: string): string | undefined {
  const url = URL.parse(text);
  if (!url) return undefined;
  let host = url.host.toLowerCase();
  let path = url.pathname.replace(/\/+$/, "").toLowerCase();
  const legacy = /^([a-z0-9-]+)\.visualstudio\.com$/.exec(host);
  if (legacy) {
    host = "dev.azure.com";
    path = `/${legacy[1]}${path.replace(/^\/defaultcollection(?=\/|$)/, "")}`;
  }
  return `${url.protocol}//${host}${path}`;
}

/** Whether `url` is the organisation's or lies under it. */
function underOrganization(url: string, organizationUrl: string): boolean {
  const inner = canonicalOrganizationUrl(url);
  const outer = canonicalOrganizationUrl(organizationUrl);
  return inner !== undefined && outer !== undefined && (inner === outer || inner.startsWith(`${outer}/`));
}

/** Why the event is not of the integration's organisation and project; undefined when it is. */
function foreignTo(event: ServiceHookEvent, pullRequest: PullRequest, integration: HookIntegration) {
  const urls = [event.resourceContainers?.collection?.baseUrl, pullRequest.repository.url].filter(
    (url): url is string => url !== undefined,
  );
  if (urls.length === 0 || !urls.every((url) => underOrganization(url, integration.organizationUrl))) {
    return "event is not from the integration's organization";
  }
  if (pullRequest.repository.project.id !== integration.projectId) {
    return "event is not from the integration's project";
  }
  return undefined;
}

function review(
  pullRequest: PullRequest,
  trigger: "opened" | "synchronize" | "command",
  orgId: string,
): ReviewEvent {
  if (pullRequest.status !== "active") {
    return { kind: "ignored", reason: `pull request is ${pullRequest.status}` };
  }
  return {
    kind: "review",
    repository: { integration: AZURE_DEVOPS_INTEGRATION, externalId: pullRequest.repository.id, orgId },
    pullRequest: pullRequest.pullRequestId,
    trigger,
    headSha: pullRequest.lastMergeSourceCommit?.commitId,
    baseSha: pullRequest.lastMergeTargetCommit?.commitId,
    // The event's repository carries only its API URL; the link waits for the worker's read.
    label: pullRequest.title === undefined ? undefined : { title: pullRequest.title },
  };
}

const ignored = (reason: string): AzureDevOpsEvent => ({ review: { kind: "ignored", reason } });

/** What a service-hook event that came through `integration`'s hook asks of the review engine. */
export function azureDevOpsReviewEvent(
  event: ServiceHookEvent,
  productName: string,
  integration: HookIntegration,
): AzureDevOpsEvent {
  if (event.eventType === "git.pullrequest.created" || event.eventType === "git.pullrequest.updated") {
    const parsed = pullRequestSchema.safeParse(event.resource);
    if (!parsed.success) return ignored("not a pull request resource");
    const foreign = foreignTo(event, parsed.data, integration);
    if (foreign) return ignored(foreign);
    const trigger = event.eventType === "git.pullrequest.created" ? "opened" : "synchronize";
    return { review: review(parsed.data, trigger, integration.orgId) };
  }
  if (event.eventType === "ms.vss-code.git-pullrequest-comment-event") {
    const parsed = commentResourceSchema.safeParse(event.resource);
    if (!parsed.success) return ignored("not a pull request comment resource");
    const { comment, pullRequest } = parsed.data;
    const foreign = foreignTo(event, pullRequest, integration);
    if (foreign) return ignored(foreign);
    const command = parseBotCommand(comment.content ?? "", productName);
    if (!command) return ignored("no command");
    const result = review(pullRequest, "command", integration.orgId);
    if (result.kind !== "review") return { review: result };
    if (!comment.author) return ignored("command refused: the comment names no author");
    return {
      review: { ...result, command },
      commenter: {
        identityId: comment.author.id,
        projectId: pullRequest.repository.project.id,
        repositoryId: pullRequest.repository.id,
      },
    };
  }
  return ignored(`event ${event.eventType} is not reviewed`);
}
