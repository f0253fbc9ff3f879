/**
 * The review runs of the caller's organisation (docs/product.md, API table): the list, one run
 * with its decision log and findings, a retry, and a Server-Sent Events stream of run changes
 * (as many at once as `streamGate` lets a session and an organisation hold). Every query is bound
 * to the session's organisation: another organisation's run is a 404.
 */

import { randomUUID } from "node:crypto";
import type { Router } from "express";
import type { ExpressionBuilder } from "kysely";
import * as v from "valibot";
import { API_PATHS } from "../../shared/contract/common.ts";
import { pullRequestNumberOf } from "../../shared/contract/review-search.ts";
import {
  REVIEW_FEEDBACK_PATH,
  type ReviewRunDetail,
  type ReviewRunSummary,
  reviewFeedbackQuerySchema,
  type reviewFeedbackResponseSchema,
  type reviewRetryResponseSchema,
  type reviewRunResponseSchema,
  reviewRunsQuerySchema,
  type reviewRunsResponseSchema,
} from "../../shared/contract/reviews.ts";
import { uuidSchema } from "../../shared/contract/schema.ts";
import { sessionOf } from "../auth/require-session.ts";
import { commitUrlOf } from "../code-hosts/registry.ts";
import type { Db } from "../db/database.ts";
import { containsPattern, offsetOf, pageInfoOf } from "../db/paging.ts";
import { cachedRead, type ReadCacheKind } from "../db/read-cache.ts";
import type { Database } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import type { EventStreamGate } from "../http/event-streams.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { feedbackSummary } from "../review/feedback-summary.ts";
import type { ReviewRunStatus } from "../review/model.ts";
import { feedbackOf, NO_FEEDBACK } from "../review/pipeline/feedback.ts";
import type { ReviewQueue } from "../review/queue/queue.ts";
import { announceRunChange, onRunChange } from "../review/queue/run-events.ts";
import { queueRun, RUN_FINDINGS_KEPT_MAX } from "../review/queue/runs.ts";

/**
 * A comment line on the event stream this often keeps it open through the gateway, whose upstream
 * idle timeout (PROXY_TIMEOUT_MS, 15 s by default) would otherwise end a quiet stream.
 */
const EVENT_STREAM_HEARTBEAT_MS = 10_000;

/**
 * The event stream's headers. no-transform: no proxy on the way compresses the stream and holds
 * events back to fill its buffer (our gateway passes /api answers through as they are); X-Accel-Buffering:
 * a proxy like nginx in front does not hold it back.
 */
export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/**
 * Pages of runs, on embedded PGlite answered from memory until the next write to what they read
 * (db/read-cache.ts): a run that changes writes its decisions, so an open page follows it.
 */
const RUN_PAGES: ReadCacheKind = {
  tables: ["review_runs", "review_decisions", "review_pull_requests", "projects"],
};

/** The reactions summed, likewise until the next write to the feedback or to what it names. */
const FEEDBACK_SUMS: ReadCacheKind = {
  tables: ["finding_feedback", "review_findings", "review_runs", "projects"],
};

const RUN_PATH = `${API_PATHS.reviews}/:runId` as const;
const RETRY_PATH = `${RUN_PATH}/retry` as const;

const runParamsSchema = v.object({ runId: v.string() });

const notFound = () => new HttpError(404, { error: "Review run not found" });

function summaries(db: Db, orgId: string) {
  return db
    .selectFrom("review_runs as run")
    .innerJoin("projects as project", "project.id", "run.project_id")
    .leftJoin("review_pull_requests as pr", (join) =>
      join.onRef("pr.project_id", "=", "run.project_id").onRef("pr.pull_request", "=", "run.pull_request"),
    )
    .select([
      "run.id",
      "run.project_id",
      "project.name",
      "project.properties",
      "run.pull_request",
      "pr.title",
      "pr.url",
      "run.status",
      "run.trigger",
      "run.command",
      "run.head_sha",
      "run.queued_at",
      "run.started_at",
      "run.finished_at",
      "run.findings_total",
      "run.findings_posted",
      "run.reason",
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("review_decisions as decision")
            .select("decision.id")
            .whereRef("decision.run_id", "=", "run.id")
            .where("decision.step", "=", "post")
            .where("decision.outcome", "=", "shadow"),
        )
        .$castTo<boolean>()
        .as("shadow"),
    )
    .where("run.org_id", "=", orgId);
}

/** The runs of pull requests `search` names, as runMatchesSearch says (shared/contract/review-search.ts). */
function namedBySearch(
  eb: ExpressionBuilder<Database & { run: Database["review_runs"] }, "run">,
  search: string,
) {
  const titled = eb.exists(
    eb
      .selectFrom("review_pull_requests as pr")
      .select("pr.pull_request")
      .whereRef("pr.project_id", "=", "run.project_id")
      .whereRef("pr.pull_request", "=", "run.pull_request")
      .where("pr.title", "ilike", containsPattern(search)),
  );
  const number = pullRequestNumberOf(search);
  return number === undefined ? titled : eb.or([eb("run.pull_request", "=", number), titled]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>["execute"]>>[number];

function summaryOf(row: SummaryRow): ReviewRunSummary {
  return {
    id: row.id,
    projectId: row.project_id,
    repository: row.properties.full_name ?? row.name,
    pullRequest: row.pull_request,
    pullRequestTitle: row.title,
    pullRequestUrl: row.url,
    status: row.status,
    trigger: row.trigger,
    command: row.command,
    headSha: row.head_sha,
    queuedAt: row.queued_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    durationMs:
      row.started_at && row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null,
    findingsTotal: row.findings_total,
    findingsPosted: row.findings_posted,
    reason: row.reason,
    shadow: row.shadow,
  };
}

/** The run's summary if it is the organisation's; a run id that is not a uuid is no run. */
async function runSummary(db: Db, orgId: string, runId: string) {
  if (!v.is(uuidSchema, runId)) return undefined;
  const row = await summaries(db, orgId).where("run.id", "=", runId).executeTakeFirst();
  return row && summaryOf(row);
}

export function reviewsRouter(db: Db, queue: ReviewQueue, streamGate: EventStreamGate): Router {
  const router = strictRouter();

  router.get(API_PATHS.reviews, async (req, res) => {
    const query = parseRequest(reviewRunsQuerySchema, req.query, "query");
    const { org } = sessionOf(res);
    const { projectId, status, search } = query;
    const direction = query.sort === "queued_at" ? "asc" : "desc";
    const key = JSON.stringify([org.id, projectId, status, search, query.sort, query.page, query.pageSize]);
    const { rows, total } = await cachedRead(db, RUN_PAGES, key, async () => {
      const matching = db
        .selectFrom("review_runs as run")
        .where("run.org_id", "=", org.id)
        .$if(projectId !== undefined, (select) => select.where("run.project_id", "=", projectId as string))
        .$if(status !== undefined, (select) => select.where("run.status", "=", status as ReviewRunStatus))
        .$if(search !== "", (select) => select.where((eb) => namedBySearch(eb, search)));
      // The page's runs are picked from the runs alone, in an index's order; only those few are then
      // joined with their repository, pull request and shadow check.
      const pageIds = matching
        .select("run.id")
        .orderBy("run.queued_at", direction)
        .orderBy("run.id", direction)
        .limit(query.pageSize)
        .offset(offsetOf(query));
      const [rows, counted] = await Promise.all([
        summaries(db, org.id)
          .where("run.id", "in", pageIds)
          .orderBy("run.queued_at", direction)
          .orderBy("run.id", direction)
          .execute(),
        matching.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(counted.total) };
    });
    res.json({
      success: true,
      data: rows.map(summaryOf),
      page: pageInfoOf(query, total),
    } satisfies v.InferOutput<typeof reviewRunsResponseSchema>);
  });

  // Before RUN_PATH, which would take "feedback" for a run id.
  router.get(REVIEW_FEEDBACK_PATH, async (req, res) => {
    const { projectId } = parseRequest(reviewFeedbackQuerySchema, req.query, "query");
    const { org } = sessionOf(res);
    const key = JSON.stringify([org.id, projectId]);
    const data = await cachedRead(db, FEEDBACK_SUMS, key, () => feedbackSummary(db, org.id, projectId));
    res.json({ success: true, data } satisfies v.InferOutput<typeof reviewFeedbackResponseSchema>);
  });

  // Before RUN_PATH, which would take "events" for a run id.
  router.get(API_PATHS.reviewEvents, (req, res) => {
    if (!streamGate(res)) return;
    const { org } = sessionOf(res);
    res.writeHead(200, EVENT_STREAM_HEADERS);
    res.write(": connected\n\n");
    let sending = Promise.resolve();
    const stop = onRunChange((change) => {
      if (change.orgId !== org.id) return;
      // In order, one read at a time: a run's later state never overtakes an earlier one.
      sending = sending
        .then(async () => {
          const summary = await runSummary(db, org.id, change.runId);
          if (summary && !res.writableEnded) res.write(`event: run\ndata: ${JSON.stringify(summary)}\n\n`);
        })
        .catch((error: unknown) => req.log?.warn({ err: error }, "review event not sent"));
    });
    const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), EVENT_STREAM_HEARTBEAT_MS);
    res.on("close", () => {
      stop();
      clearInterval(heartbeat);
    });
  });

  router.get(RUN_PATH, async (req, res) => {
    const { runId } = parseRequest(runParamsSchema, req.params, "path");
    const { org } = sessionOf(res);
    const summary = await runSummary(db, org.id, runId);
    if (!summary) throw notFound();
    const [project, decisions, findings, usage] = await Promise.all([
      db
        .selectFrom("projects")
        .select(["integration_name", "properties", "external_link"])
        .where("id", "=", summary.projectId)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("review_decisions")
        .select(["step", "outcome", "detail", "created_at"])
        .where("run_id", "=", runId)
        .orderBy("id")
        .execute(),
      db
        .selectFrom("review_findings")
        .select(["fingerprint", "finding", "delivery", "shadow_delivery", "not_posted_reason"])
        .where("run_id", "=", runId)
        .orderBy("id")
        // Runs recorded before the cap may hold more.
        .limit(RUN_FINDINGS_KEPT_MAX)
        .execute(),
      db
        .selectFrom("review_runs")
        .select([
          "ai_outcome",
          "ai_model",
          "ai_input_tokens",
          "ai_output_tokens",
          "ai_cost_micros",
          "ai_note",
        ])
        .where("id", "=", runId)
        .executeTakeFirstOrThrow(),
    ]);
    const feedback = await feedbackOf(
      db,
      summary.projectId,
      findings.map((row) => row.fingerprint),
    );
    const feedbackFor = (fingerprint: string) => {
      const stored = feedback.get(fingerprint);
      return stored ? { thumbsUp: stored.thumbsUp, thumbsDown: stored.thumbsDown } : NO_FEEDBACK;
    };
    const data: ReviewRunDetail = {
      ...summary,
      headCommitUrl: summary.headSha ? commitUrlOf(project, summary.headSha) : null,
      decisions: decisions.map((row) => ({
        step: row.step,
        outcome: row.outcome,
        detail: row.detail,
        at: row.created_at.toISOString(),
      })),
      findings: findings.map((row) => ({
        finding: row.finding,
        delivery: row.delivery,
        shadowDelivery: row.shadow_delivery,
        notPostedReason: row.not_posted_reason,
        feedback: feedbackFor(row.fingerprint),
      })),
      ai: usage.ai_outcome && {
        outcome: usage.ai_outcome,
        model: usage.ai_model,
        inputTokens: usage.ai_input_tokens,
        outputTokens: usage.ai_output_tokens,
        costMicros: usage.ai_cost_micros,
        note: usage.ai_note,
      },
    };
    res.json({ success: true, data } satisfies v.InferOutput<typeof reviewRunResponseSchema>);
  });

  /**
   * Reviews the run's pull request again, as if someone commented `@bot review` (`full review`
   * when the run was one): through the same queue, so it folds into a run already waiting.
   */
  router.post(RETRY_PATH, async (req, res) => {
    const { runId } = parseRequest(runParamsSchema, req.params, "path");
    const { org } = sessionOf(res);
    const run = v.is(uuidSchema, runId)
      ? await db
          .selectFrom("review_runs")
          .select(["project_id", "pull_request", "command"])
          .where("id", "=", runId)
          .where("org_id", "=", org.id)
          .executeTakeFirst()
      : undefined;
    if (!run) throw notFound();
    const queued = await db.transaction().execute(async (trx) => {
      const result = await queueRun(trx, {
        orgId: org.id,
        projectId: run.project_id,
        pullRequest: run.pull_request,
        trigger: "command",
        command: run.command === "full review" ? "full review" : "review",
        deliveryId: `retry:${runId}:${randomUUID()}`,
      });
      if (result.created) {
        await queue.enqueue(trx, {
          runId: result.runId,
          projectId: run.project_id,
          pullRequest: run.pull_request,
        });
      }
      return result;
    });
    announceRunChange({ orgId: org.id, runId: queued.runId });
    const summary = await runSummary(db, org.id, queued.runId);
    if (!summary) throw notFound();
    res
      .status(202)
      .json({ success: true, data: summary } satisfies v.InferOutput<typeof reviewRetryResponseSchema>);
  });

  return router;
}
