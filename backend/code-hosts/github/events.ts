/**
 * GitHub's events for the review engine, read from their payloads: `pull_request` (opened,
 * reopened, ready_for_review, synchronize) and `issue_comment` (created, on a pull request, with a
 * bot command from someone with write access to the repository). Everything else is acknowledged
 * and ignored, with the reason.
 */
import { z } from "zod";
import { parseBotCommand } from "../../review/ingest/commands.ts";
import type { ReviewEvent } from "../../review/ingest/ingest.ts";
import type { ReviewTrigger } from "../../review/model.ts";
import { GITHUB_INTEGRATION } from "../catalogue.ts";
import type { CommandAccess } from "./command-access.ts";

export const GITHUB_REVIEW_EVENTS = new Set(["pull_request", "issue_comment"]);

const REVIEWED_ACTIONS = new Set<string>(["opened", "reopened", "ready_for_review", "synchronize"]);

const source = {
  installation: z.object({ id: z.number().int() }),
  repository: z.object({ id: z.number().int() }),
};

const pullRequestSchema = z.object({
  action: z.string(),
  ...source,
  pull_request: z.object({
    number: z.number().int().positive(),
    head: z.object({ sha: z.string() }),
    base: z.object({ sha: z.string() }),
  }),
});

const issueCommentSchema = z.object({
  action: z.string(),
  ...source,
  issue: z.object({
    number: z.number().int().positive(),
    // Present only when the issue is a pull request.
    pull_request: z.object({}).optional(),
  }),
  repository: z.object({ id: z.number().int(), full_name: z.string() }),
  comment: z.object({ body: z.string().nullable(), user: z.object({ type: z.string(), login: z.string() }) }),
});

export interface GitHubEventOptions {
  productName: string;
  /** Who may command the bot; undefined (no GitHub App configured): nobody, since none can be checked. */
  commandAccess?: CommandAccess | undefined;
}

const repositoryOf = (payload: z.infer<typeof pullRequestSchema> | z.infer<typeof issueCommentSchema>) => ({
  integration: GITHUB_INTEGRATION,
  key: String(payload.installation.id),
  externalId: String(payload.repository.id),
});

/**
 * What a `pull_request` or `issue_comment` delivery asks of the review engine. A command asks
 * GitHub whether its author may give it (every command: any of them would let a stranger steer the
 * organisation's bot or spend its model budget); a refusal is an ignored delivery with the reason.
 */
export async function githubReviewEvent(
  event: string,
  payload: unknown,
  { productName, commandAccess }: GitHubEventOptions,
): Promise<ReviewEvent> {
  if (event === "pull_request") {
    const parsed = pullRequestSchema.safeParse(payload);
    if (!parsed.success) return { kind: "ignored", reason: "not a pull request event of an installation" };
    const { action, pull_request } = parsed.data;
    if (!REVIEWED_ACTIONS.has(action)) return { kind: "ignored", reason: `action ${action} is not reviewed` };
    return {
      kind: "review",
      repository: repositoryOf(parsed.data),
      pullRequest: pull_request.number,
      trigger: action as ReviewTrigger,
      headSha: pull_request.head.sha,
      baseSha: pull_request.base.sha,
    };
  }
  const parsed = issueCommentSchema.safeParse(payload);
  if (!parsed.success) return { kind: "ignored", reason: "not a comment event of an installation" };
  const { action, issue, comment } = parsed.data;
  if (action !== "created") return { kind: "ignored", reason: `comment ${action}` };
  if (!issue.pull_request) return { kind: "ignored", reason: "comment on an issue" };
  // Bots (ours included, whose help text names the commands) do not command reviews.
  if (comment.user.type === "Bot") return { kind: "ignored", reason: "comment by a bot" };
  const command = parseBotCommand(comment.body ?? "", productName);
  if (!command) return { kind: "ignored", reason: "no command" };
  const { login } = comment.user;
  const fullName = parsed.data.repository.full_name;
  if (!commandAccess)
    return { kind: "ignored", reason: "commands need a GitHub App to check who gives them" };
  if (!(await commandAccess(String(parsed.data.installation.id), fullName, login))) {
    return { kind: "ignored", reason: `${login} may not command reviews (no write access to ${fullName})` };
  }
  return {
    kind: "review",
    repository: repositoryOf(parsed.data),
    pullRequest: issue.number,
    trigger: "command",
    command,
  };
}
