/**
 * Azure DevOps service-hook events for the review engine: `git.pullrequest.created` (a run
 * triggered `opened`), `git.pullrequest.updated` (`synchronize`; subscribe with the "Source branch
 * updated" filter, other updates would only repeat a review of the same head) and
 * `ms.vss-code.git-pullrequest-comment-event` (a bot command). A pull request that is no longer
 * active is not reviewed. Heads come from `lastMergeSourceCommit` and `lastMergeTargetCommit`.
 */
import { z } from "zod";
import { AZURE_DEVOPS_INTEGRATION } from "../integrations/catalogue.ts";
import { parseBotCommand } from "./commands.ts";
import type { ReviewEvent } from "./ingest.ts";

const commitSchema = z.object({ commitId: z.string() }).optional();

const pullRequestSchema = z.object({
  pullRequestId: z.number().int().positive(),
  status: z.string(),
  repository: z.object({ id: z.string().min(1) }),
  lastMergeSourceCommit: commitSchema,
  lastMergeTargetCommit: commitSchema,
});

/** The envelope every service-hook event shares; `id` identifies the event across retries. */
export const serviceHookEventSchema = z.object({
  id: z.string().min(1).max(128),
  eventType: z.string().min(1).max(128),
  resource: z.unknown(),
});

const commentResourceSchema = z.object({
  comment: z.object({ content: z.string().nullable().optional() }),
  pullRequest: pullRequestSchema,
});

type PullRequest = z.infer<typeof pullRequestSchema>;

function review(pullRequest: PullRequest, trigger: "opened" | "synchronize" | "command"): ReviewEvent {
  if (pullRequest.status !== "active") {
    return { kind: "ignored", reason: `pull request is ${pullRequest.status}` };
  }
  return {
    kind: "review",
    repository: { integration: AZURE_DEVOPS_INTEGRATION, externalId: pullRequest.repository.id },
    pullRequest: pullRequest.pullRequestId,
    trigger,
    headSha: pullRequest.lastMergeSourceCommit?.commitId,
    baseSha: pullRequest.lastMergeTargetCommit?.commitId,
  };
}

/** What a service-hook event asks of the review engine. */
export function azureDevOpsReviewEvent(
  event: z.infer<typeof serviceHookEventSchema>,
  productName: string,
): ReviewEvent {
  if (event.eventType === "git.pullrequest.created" || event.eventType === "git.pullrequest.updated") {
    const parsed = pullRequestSchema.safeParse(event.resource);
    if (!parsed.success) return { kind: "ignored", reason: "not a pull request resource" };
    return review(parsed.data, event.eventType === "git.pullrequest.created" ? "opened" : "synchronize");
  }
  if (event.eventType === "ms.vss-code.git-pullrequest-comment-event") {
    const parsed = commentResourceSchema.safeParse(event.resource);
    if (!parsed.success) return { kind: "ignored", reason: "not a pull request comment resource" };
    const command = parseBotCommand(parsed.data.comment.content ?? "", productName);
    if (!command) return { kind: "ignored", reason: "no command" };
    const result = review(parsed.data.pullRequest, "command");
    return result.kind === "review" ? { ...result, command } : result;
  }
  return { kind: "ignored", reason: `event ${event.eventType} is not reviewed` };
}
