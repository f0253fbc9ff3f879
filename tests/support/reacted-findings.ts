/**
 * A repository whose one run (on pull request 4) kept some findings, and the 👍 and 👎 a later run
 * read for them, stored as the pipeline stores them: for the tests of what reactions lead to
 * (backend/routes/suppressed-findings.test.ts, backend/routes/review-feedback.test.ts).
 */
import type { Db } from "../../backend/db/database.ts";
import { storeFeedback } from "../../backend/review/pipeline/feedback.ts";
import type { Finding } from "../../shared/contract/reviews.ts";
import { githubProjectRow } from "./project-rows.ts";

/** A fingerprint's 👍 and 👎 as read from pull request 4. */
export type Reaction = [fingerprint: string, thumbsUp: number, thumbsDown: number];

export async function repositoryWithFindings(db: Db, orgId: string, name: string, kept: Finding[]) {
  const { id: projectId } = await db
    .insertInto("projects")
    .values(githubProjectRow(orgId, name))
    .returning("id")
    .executeTakeFirstOrThrow();
  const run = await db
    .insertInto("review_runs")
    .values({ org_id: orgId, project_id: projectId, pull_request: 4, trigger: "opened", status: "succeeded" })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (kept.length > 0) {
    await db
      .insertInto("review_findings")
      .values(
        kept.map((finding) => ({
          run_id: run.id,
          fingerprint: finding.fingerprint,
          delivery: "inline" as const,
          finding: JSON.stringify(finding),
        })),
      )
      .execute();
  }
  /** What the next run reads on the pull request. */
  const react = (reactions: Reaction[]) =>
    storeFeedback(
      db,
      { projectId, pullRequest: 4 },
      new Map(reactions.map(([fingerprint, up, down]) => [fingerprint, { thumbsUp: up, thumbsDown: down }])),
    );
  return { projectId, react };
}
