/**
 * The review screens' calls from the browser (same origin, the session cookie): review a pull
 * request again, open a sandbox pull request, push to one, comment on one, react to a review comment on one. Pages
 * load it on demand (`reviewCalls` in lazy-reviews.ts), never statically
 * (docs/decisions/006-page-weight.md).
 */

import { API_PATHS } from "../../../shared/contract/common.ts";
import type { BotCommand, reviewRetryResponseSchema } from "../../../shared/contract/reviews.ts";
import {
  SANDBOX_PULL_PATHS,
  type SandboxComment,
  type SandboxCommit,
  type SandboxPullCreate,
  type SandboxReact,
  type SandboxReactions,
  type sandboxCommentPostedSchema,
  type sandboxPullCreatedSchema,
  type sandboxReactionsResponseSchema,
} from "../../../shared/contract/sandbox.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";

const api = browserApiClient();

/** The new resource's id, or the message to show. */
export type CallOutcome = { ok: true; id: string } | { ok: false; message: string };

async function outcomeOf(call: Promise<{ data: { id: string } }>, fallback: string): Promise<CallOutcome> {
  try {
    return { ok: true, id: (await call).data.id };
  } catch (error) {
    return { ok: false, message: error instanceof ApiError && error.body ? error.message : fallback };
  }
}

/** A new run of the run's pull request; its id. */
export function retryRun(runId: string): Promise<CallOutcome> {
  return outcomeOf(
    api.call<typeof reviewRetryResponseSchema>(API_PATHS.reviewRunRetry(runId), { method: "POST", body: {} }),
    "The review could not be started again.",
  );
}

/** The new pull request's id. */
export function openSandboxPull(projectId: string, body: SandboxPullCreate): Promise<CallOutcome> {
  return outcomeOf(
    api.call<typeof sandboxPullCreatedSchema>(SANDBOX_PULL_PATHS.pulls(projectId), { method: "POST", body }),
    "The pull request could not be opened.",
  );
}

/** The pull request's id once the commit is on it. */
export function pushSandboxCommit(pullId: string, body: SandboxCommit): Promise<CallOutcome> {
  return outcomeOf(
    api.call<typeof sandboxPullCreatedSchema>(SANDBOX_PULL_PATHS.pullCommits(pullId), {
      method: "POST",
      body,
    }),
    "The commit could not be pushed.",
  );
}

/** The comment posted, with the bot command it gave (null for none). */
export async function commentOnSandboxPull(
  pullId: string,
  body: SandboxComment,
): Promise<{ ok: true; command: BotCommand | null } | { ok: false; message: string }> {
  try {
    const { data } = await api.call<typeof sandboxCommentPostedSchema>(
      SANDBOX_PULL_PATHS.pullComments(pullId),
      {
        method: "POST",
        body,
      },
    );
    return { ok: true, command: data.command };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof ApiError && error.body ? error.message : "The comment could not be posted.",
    };
  }
}

/** The comment's reactions once the person's 👍 or 👎 is pressed or released. */
export async function reactToSandboxComment(
  commentId: number,
  body: SandboxReact,
): Promise<{ ok: true; reactions: SandboxReactions } | { ok: false; message: string }> {
  try {
    const { data } = await api.call<typeof sandboxReactionsResponseSchema>(
      SANDBOX_PULL_PATHS.commentReactions(commentId),
      { method: "POST", body },
    );
    return { ok: true, reactions: data };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof ApiError && error.body ? error.message : "The reaction could not be saved.",
    };
  }
}
