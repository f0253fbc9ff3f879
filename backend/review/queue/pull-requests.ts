/**
 * What the review engine remembers of a pull request between runs (review_pull_requests): whether
 * `@bot pause` paused it, the head its last review covered, and its title and link for the run
 * pages. A pull request without a row is unpaused and never reviewed.
 */
import { sql } from "kysely";
import type { Db } from "../../db/database.ts";

export interface PullRequestRef {
  projectId: string;
  pullRequest: number;
}

export interface PullRequestState {
  paused: boolean;
  lastReviewedSha: string | null;
}

export async function pullRequestState(db: Db, ref: PullRequestRef): Promise<PullRequestState> {
  const row = await db
    .selectFrom("review_pull_requests")
    .select(["paused", "last_reviewed_sha"])
    .where("project_id", "=", ref.projectId)
    .where("pull_request", "=", ref.pullRequest)
    .executeTakeFirst();
  return { paused: row?.paused ?? false, lastReviewedSha: row?.last_reviewed_sha ?? null };
}

type Changes = { paused?: boolean; last_reviewed_sha?: string; title?: string; url?: string };

/** Creates the pull request's row or updates the given columns of it. */
export async function updatePullRequest(db: Db, ref: PullRequestRef, changes: Changes): Promise<void> {
  await db
    .insertInto("review_pull_requests")
    .values({ project_id: ref.projectId, pull_request: ref.pullRequest, ...changes })
    .onConflict((conflict) =>
      conflict.columns(["project_id", "pull_request"]).doUpdateSet({ ...changes, updated_at: sql`now()` }),
    )
    .execute();
}
