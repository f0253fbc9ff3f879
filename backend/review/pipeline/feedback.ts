/**
 * People's 👍 and 👎 on posted findings (finding_feedback, decision 021): each run stores the
 * counts its code host shows for the findings on the pull request, and a fingerprint that got a 👎
 * in a repository is suppressed there from then on: later runs record it as `suppressed` and do
 * not post it, whichever reviewer found it.
 */
import { sql } from "kysely";
import type { Finding, FindingFeedback } from "../../../shared/contract/reviews.ts";
import type { PostedFindings } from "../../code-hosts/review-host.ts";
import type { Db } from "../../db/database.ts";
import type { FindingDelivery } from "../model.ts";
import type { DecisionLog } from "../queue/worker.ts";

export const NO_FEEDBACK: FindingFeedback = { thumbsUp: 0, thumbsDown: 0 };

/** Adds a comment's reactions to the fingerprint's counts (a fingerprint may be in several comments). */
export function addReactions(
  found: Map<string, FindingFeedback>,
  fingerprint: string,
  counts: FindingFeedback,
) {
  const before = found.get(fingerprint) ?? NO_FEEDBACK;
  found.set(fingerprint, {
    thumbsUp: before.thumbsUp + counts.thumbsUp,
    thumbsDown: before.thumbsDown + counts.thumbsDown,
  });
}

/**
 * Stores the counts as the code host shows them on a pull request now, and suppresses each
 * fingerprint the first time it has a 👎 (the suppression stays when the 👎 is taken back), or,
 * once someone posted it again (releaseSuppression), a 👎 more than it had then. The same
 * fingerprint may be on several pull requests: a read with reactions wins, and a read without any
 * replaces only counts read from the same pull request, so a fresh pull request does not wipe the
 * reactions an earlier one got.
 */
export async function storeFeedback(
  db: Db,
  ref: { projectId: string; pullRequest: number },
  posted: PostedFindings,
): Promise<void> {
  if (posted.size === 0) return;
  await db
    .insertInto("finding_feedback")
    .values(
      [...posted].map(([fingerprint, counts]) => ({
        project_id: ref.projectId,
        fingerprint,
        pull_request: ref.pullRequest,
        thumbs_up: counts.thumbsUp,
        thumbs_down: counts.thumbsDown,
        suppressed_at: counts.thumbsDown > 0 ? sql<Date>`now()` : null,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(["project_id", "fingerprint"])
        .doUpdateSet((eb) => ({
          pull_request: eb.ref("excluded.pull_request"),
          thumbs_up: eb.ref("excluded.thumbs_up"),
          thumbs_down: eb.ref("excluded.thumbs_down"),
          suppressed_at: sql<Date | null>`coalesce(finding_feedback.suppressed_at, case when excluded.thumbs_down > finding_feedback.released_thumbs_down then excluded.suppressed_at end)`,
          updated_at: sql<Date>`now()`,
        }))
        .where(
          sql<boolean>`excluded.thumbs_up + excluded.thumbs_down > 0 or finding_feedback.pull_request = excluded.pull_request`,
        ),
    )
    .execute();
}

/** The pipeline's `feedback` step: reads the counts into storage and logs their totals. */
export async function syncFeedback(
  db: Db,
  ref: { projectId: string; pullRequest: number },
  posted: PostedFindings,
  log: DecisionLog,
): Promise<void> {
  await storeFeedback(db, ref, posted);
  const counts = [...posted.values()];
  await log("feedback", "synced", {
    posted_findings: posted.size,
    thumbs_up: counts.reduce((sum, count) => sum + count.thumbsUp, 0),
    thumbs_down: counts.reduce((sum, count) => sum + count.thumbsDown, 0),
  });
}

/**
 * Posts a suppressed finding again: the suppression ends, and only a 👎 beyond those it has now
 * brings it back. False when the fingerprint is not suppressed in the repository.
 */
export async function releaseSuppression(db: Db, projectId: string, fingerprint: string): Promise<boolean> {
  const released = await db
    .updateTable("finding_feedback")
    .set((eb) => ({
      suppressed_at: null,
      released_thumbs_down: eb.ref("thumbs_down"),
      updated_at: sql<Date>`now()`,
    }))
    .where("project_id", "=", projectId)
    .where("fingerprint", "=", fingerprint)
    .where("suppressed_at", "is not", null)
    .executeTakeFirst();
  return released.numUpdatedRows > 0n;
}

/** The stored counts of these fingerprints in the repository; absent ones have none. */
export async function feedbackOf(
  db: Db,
  projectId: string,
  fingerprints: readonly string[],
): Promise<Map<string, FindingFeedback & { suppressed: boolean }>> {
  if (fingerprints.length === 0) return new Map();
  const rows = await db
    .selectFrom("finding_feedback")
    .select(["fingerprint", "thumbs_up", "thumbs_down", "suppressed_at"])
    .where("project_id", "=", projectId)
    .where("fingerprint", "in", [...new Set(fingerprints)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.fingerprint,
      { thumbsUp: row.thumbs_up, thumbsDown: row.thumbs_down, suppressed: row.suppressed_at !== null },
    ]),
  );
}

/**
 * Sets aside the findings whose fingerprint is suppressed in the repository, right before
 * planning, and logs `feedback.suppressed` with their count when there are any.
 */
export async function withoutSuppressed(
  db: Db,
  projectId: string,
  findings: readonly Finding[],
  log: DecisionLog,
): Promise<{ kept: Finding[]; suppressed: Array<{ finding: Finding; delivery: FindingDelivery }> }> {
  const stored = await feedbackOf(
    db,
    projectId,
    findings.map((finding) => finding.fingerprint),
  );
  const isSuppressed = (finding: Finding) => stored.get(finding.fingerprint)?.suppressed === true;
  const suppressed = findings.filter(isSuppressed);
  if (suppressed.length) {
    await log("feedback.suppressed", "suppressed", {
      count: suppressed.length,
      rules: [...new Set(suppressed.map((finding) => finding.ruleId))],
    });
  }
  return {
    kept: findings.filter((finding) => !isSuppressed(finding)),
    suppressed: suppressed.map((finding) => ({ finding, delivery: "suppressed" as const })),
  };
}
