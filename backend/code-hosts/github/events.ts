/**
 * GitHub's events for the review engine, read from their payloads: `pull_request` (opened,
 * reopened, ready_for_review, synchronize; `edited` with a new title only records it for the run
 * pages), `issue_comment` (created, on a pull request, with a bot command from someone with write
 * access to the repository) and `check_run` (rerequested: "Re-run" on the review's check, a
 * `review` command). Everything else is acknowledged and ignored, with the reason.
 */
import { z } from "zod";
import { parseBotCommand } from "../../review/ingest/commands.ts";
import type { ReviewEvent } from "../../review/ingest/ingest.ts";
import type { ReviewTrigger } from "../../review/model.ts";
import { reviewCheckName } from "../../review/pipeline/check.ts";
import { GITHUB_INTEGRATION } from "../catalogue.ts";
import type { CommandAccess } from "./command-access.ts";

export const GITHUB_REVIEW_EVENTS = new Set(["pull_request", "issue_comment", "check_run"]);

const REVIEWED_ACTIONS = new Set<string>(["opened", "reopened", "ready_for_review", "synchronize"]);

const source = {
  installation: z.object({ id: z.number().int() }),
  repository: z.object({ id: z.number().int() }),
};

const pullRequestSchema = z.object({
  action: z.string(),
  /** On `edited`: what changed, with the values before. */
  changes: z.object({ title: z.object({ from: z.string() }).optional() }).optional(),
  ...source,
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string().optional(),
    html_url: z.string().optional(),
    head: z.object({ sha: z.string() }),
    base: z.object({ sha: z.string() }),
  }),
});

const issueCommentSchema = z.object({
  action: z.string(),
  ...source,
  issue: z.object({
    number: z.number().int().positive(),
    title: z.string().optional(),
    // Present only when the issue is a pull request.
    pull_request: z.object({ html_url: z.string().optional() }).optional(),
  }),
  repository: z.object({ id: z.number().int(), full_name: z.string() }),
  comment: z.object({ body: z.string().nullable(), user: z.object({ type: z.string(), login: z.string() }) }),
});

const checkRunSchema = z.object({
  action: z.string(),
  ...source,
  repository: z.object({ id: z.number().int(), full_name: z.string() }),
  check_run: z.object({
    name: z.string(),
    head_sha: z.string(),
    pull_requests: z.array(z.object({ number: z.number().int().positive() })),
  }),
  sender: z.object({ login: z.string() }),
});

export interface GitHubEventOptions {
  productName: string;
  /** Who may command the bot; undefined (no GitHub App configured): nobody, since none can be checked. */
  commandAccess?: CommandAccess | undefined;
}

const repositoryOf = (
  payload:
    | z.infer<typeof pullRequestSchema>
    | z.infer<typeof issueCommentSchema>
    | z.infer<typeof checkRunSchema>,
) => ({
  integration: GITHUB_INTEGRATION,
  key: String(payload.installation.id),
  externalId: String(payload.repository.id),
});

const labelOf = (title: string | undefined, url: string | undefined) =>
  title === undefined ? undefined : { title, url };

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
    const { action, pull_request, changes } = parsed.data;
    const label = labelOf(pull_request.title, pull_request.html_url);
    if (action === "edited" && changes?.title && label) {
      return {
        kind: "label",
        repository: repositoryOf(parsed.data),
        pullRequest: pull_request.number,
        label,
      };
    }
    if (!REVIEWED_ACTIONS.has(action)) return { kind: "ignored", reason: `action ${action} is not reviewed` };
    return {
      kind: "review",
      repository: repositoryOf(parsed.data),
      pullRequest: pull_request.number,
      trigger: action as ReviewTrigger,
      headSha: pull_request.head.sha,
      baseSha: pull_request.base.sha,
      label,
    };
  }
  if (event === "check_run") return checkRunEvent(payload, { productName, commandAccess });
  const parsed = issueCommentSchema.safeParse(payload);
  if (!parsed.success) return { kind: "ignored", reason: "not a comment event of an installation" };
  const { action, issue, comment } = parsed.data;
  if (action !== "created") return { kind: "ignored", reason: `comment ${action}` };
  if (!issue.pull_request) return { kind: "ignored", reason: "comment on an issue" };
  // Bots (ours included, whose help text names the commands) do not command reviews.
  if (comment.user.type === "Bot") return { kind: "ignored", reason: "comment by a bot" };
  const command = parseBotCommand(comment.body ?? "", productName);
  if (!command) return { kind: "ignored", reason: "no command" };
  const refused = await refusal(parsed.data, comment.user.login, commandAccess);
  if (refused) return refused;
  return {
    kind: "review",
    repository: repositoryOf(parsed.data),
    pullRequest: issue.number,
    trigger: "command",
    command,
    label: labelOf(issue.title, issue.pull_request.html_url),
  };
}

/**
 * Why `login` may not command the bot on the delivery's repository (no write access, or nobody can
 * check without a GitHub App); undefined when they may.
 */
async function refusal(
  payload: { installation: { id: number }; repository: { full_name: string } },
  login: string,
  commandAccess: CommandAccess | undefined,
): Promise<ReviewEvent | undefined> {
  const fullName = payload.repository.full_name;
  if (!commandAccess)
    return { kind: "ignored", reason: "commands need a GitHub App to check who gives them" };
  if (await commandAccess(String(payload.installation.id), fullName, login)) return undefined;
  return { kind: "ignored", reason: `${login} may not command reviews (no write access to ${fullName})` };
}

/**
 * "Re-run" on the review's check run (docs/review-engine.md, "The review's check"): a `review`
 * command on the pull request it is on, from the person who pressed it, checked as a comment's.
 */
async function checkRunEvent(payload: unknown, { productName, commandAccess }: GitHubEventOptions) {
  const parsed = checkRunSchema.safeParse(payload);
  if (!parsed.success)
    return { kind: "ignored" as const, reason: "not a check run event of an installation" };
  const { action, check_run: run, sender } = parsed.data;
  if (action !== "rerequested") return { kind: "ignored" as const, reason: `check run ${action}` };
  if (run.name !== reviewCheckName(productName)) {
    return { kind: "ignored" as const, reason: `check run ${run.name} is not the review's` };
  }
  const [pull] = run.pull_requests;
  if (!pull) return { kind: "ignored" as const, reason: "the check run is on no open pull request" };
  const refused = await refusal(parsed.data, sender.login, commandAccess);
  if (refused) return refused;
  return {
    kind: "review" as const,
    repository: repositoryOf(parsed.data),
    pullRequest: pull.number,
    trigger: "command" as const,
    command: "review" as const,
  };
}
