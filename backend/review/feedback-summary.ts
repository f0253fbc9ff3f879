/**
 * The reactions on an organisation's findings, summed (GET /api/reviews/feedback): what the Reviews
 * page shows so a team sees whether the reviewer helps, and which rules people keep marking as
 * noise. Each fingerprint with a reaction (or a suppression) counts once per repository, with the
 * rule and source of the latest run that kept it; one without such a run counts in the totals only.
 */
import { sql } from "kysely";
import {
  FEEDBACK_RULES_LISTED_MAX,
  type FindingSource,
  type ReviewFeedback,
  type RuleFeedback,
} from "../../shared/contract/reviews.ts";
import type { Db } from "../db/database.ts";

export async function feedbackSummary(db: Db, orgId: string, projectId?: string): Promise<ReviewFeedback> {
  const groups = await db
    .selectFrom("finding_feedback as feedback")
    .innerJoin("projects as project", "project.id", "feedback.project_id")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("review_findings as kept")
          .innerJoin("review_runs as run", "run.id", "kept.run_id")
          .select([
            sql<string>`kept.finding->>'ruleId'`.as("rule_id"),
            sql<FindingSource>`kept.finding->>'source'`.as("source"),
          ])
          .whereRef("kept.fingerprint", "=", "feedback.fingerprint")
          .whereRef("run.project_id", "=", "feedback.project_id")
          .orderBy("kept.id", "desc")
          .limit(1)
          .as("record"),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      "record.rule_id",
      "record.source",
      eb.fn.countAll<string>().as("findings"),
      eb.fn.sum<string>("feedback.thumbs_up").as("thumbs_up"),
      eb.fn.sum<string>("feedback.thumbs_down").as("thumbs_down"),
      eb.fn.count<string>("feedback.suppressed_at").as("suppressed"),
    ])
    .where("project.org_id", "=", orgId)
    .$if(projectId !== undefined, (query) => query.where("feedback.project_id", "=", projectId as string))
    .where((eb) =>
      eb.or([
        eb("feedback.thumbs_up", ">", 0),
        eb("feedback.thumbs_down", ">", 0),
        eb("feedback.suppressed_at", "is not", null),
      ]),
    )
    .groupBy(["record.rule_id", "record.source"])
    .execute();

  const counted = groups.map((group) => ({
    ruleId: group.rule_id,
    source: group.source,
    findings: Number(group.findings),
    thumbsUp: Number(group.thumbs_up),
    thumbsDown: Number(group.thumbs_down),
    suppressed: Number(group.suppressed),
  }));
  const total = (key: "findings" | "thumbsUp" | "thumbsDown" | "suppressed") =>
    counted.reduce((sum, group) => sum + group[key], 0);
  const rules: RuleFeedback[] = counted
    .filter(
      (group): group is typeof group & { ruleId: string; source: FindingSource } => group.ruleId !== null,
    )
    .sort(
      (a, b) => b.thumbsDown - a.thumbsDown || a.thumbsUp - b.thumbsUp || a.ruleId.localeCompare(b.ruleId),
    )
    .slice(0, FEEDBACK_RULES_LISTED_MAX)
    .map(({ ruleId, source, findings, thumbsUp, thumbsDown }) => ({
      ruleId,
      source,
      findings,
      thumbsUp,
      thumbsDown,
    }));
  return {
    findings: total("findings"),
    thumbsUp: total("thumbsUp"),
    thumbsDown: total("thumbsDown"),
    suppressed: total("suppressed"),
    rules,
  };
}
