/**
 * The findings a 👎 suppressed in one repository, and posting one again (decisions 021 and 062):
 * a suppression is otherwise for good, so a mistaken 👎 would hide a finding from every later
 * review of the repository without anyone seeing it.
 */
import type { Router } from "express";
import * as v from "valibot";
import {
  type Finding,
  SUPPRESSED_FINDINGS_LISTED_MAX,
  SUPPRESSED_FINDINGS_ROUTES,
  type suppressedFindingsResponseSchema,
} from "../../shared/contract/reviews.ts";
import { uuidSchema } from "../../shared/contract/schema.ts";
import { SETTINGS } from "../../shared/contract/settings.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { releaseSuppression } from "../review/pipeline/feedback.ts";
import { findRepository } from "../settings/store.ts";

const listParamsSchema = v.object({ projectId: uuidSchema });
const oneParamsSchema = v.object({
  projectId: uuidSchema,
  fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "A fingerprint is 64 hex digits.")),
});

const repositoryNotFound = () => new HttpError(404, { error: SETTINGS.repositoryNotFound });

/** What the latest run that kept each fingerprint recorded of it. */
async function latestRecords(db: Db, projectId: string, fingerprints: string[]) {
  const latest = new Map<string, Finding>();
  if (fingerprints.length === 0) return latest;
  const rows = await db
    .selectFrom("review_findings as kept")
    .innerJoin("review_runs as run", "run.id", "kept.run_id")
    .select(["kept.fingerprint", "kept.finding"])
    .where("run.project_id", "=", projectId)
    .where("kept.fingerprint", "in", fingerprints)
    .orderBy("kept.id", "desc")
    .execute();
  for (const row of rows) if (!latest.has(row.fingerprint)) latest.set(row.fingerprint, row.finding);
  return latest;
}

export function suppressedFindingsRouter(db: Db): Router {
  const router = strictRouter();

  router.get(SUPPRESSED_FINDINGS_ROUTES.list, async (req, res) => {
    const { projectId } = parseRequest(listParamsSchema, req.params, "path");
    const { org } = sessionOf(res);
    if (!(await findRepository(db, org.id, projectId))) throw repositoryNotFound();
    const rows = await db
      .selectFrom("finding_feedback")
      .select(["fingerprint", "thumbs_up", "thumbs_down", "suppressed_at"])
      .where("project_id", "=", projectId)
      .where("suppressed_at", "is not", null)
      .orderBy("suppressed_at", "desc")
      .orderBy("fingerprint")
      .limit(SUPPRESSED_FINDINGS_LISTED_MAX)
      .execute();
    const records = await latestRecords(
      db,
      projectId,
      rows.map((row) => row.fingerprint),
    );
    const findings = rows.map((row) => ({
      fingerprint: row.fingerprint,
      finding: records.get(row.fingerprint) ?? null,
      feedback: { thumbsUp: row.thumbs_up, thumbsDown: row.thumbs_down },
      suppressedAt: (row.suppressed_at ?? new Date(0)).toISOString(),
    }));
    res.json({ success: true, data: { findings } } satisfies v.InferOutput<
      typeof suppressedFindingsResponseSchema
    >);
  });

  router.delete(SUPPRESSED_FINDINGS_ROUTES.one, async (req, res) => {
    const { projectId, fingerprint } = parseRequest(oneParamsSchema, req.params, "path");
    const { org } = sessionOf(res);
    if (!(await findRepository(db, org.id, projectId))) throw repositoryNotFound();
    if (!(await releaseSuppression(db, projectId, fingerprint))) {
      throw new HttpError(404, { error: "This finding is not suppressed in the repository" });
    }
    res.json({ success: true });
  });

  return router;
}
