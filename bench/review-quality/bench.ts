/**
 * Runs the whole review pipeline over the quality corpus: an embedded PGlite database with every
 * migration, one organisation on the Pro trial with one repository, the corpus as its code host
 * (pull request N is case N), and the worker's run machinery. Each case is reviewed when opened,
 * then again on a `full review` command over the same head: what the second run posts again is a
 * duplicate. The findings each run posted are read back from review_findings.
 */
import { type Db, openDatabase } from "../../backend/db/database.ts";
import { migrateToLatest } from "../../backend/db/migrations.ts";
import type { BotCommand, ReviewTrigger } from "../../backend/review/model.ts";
import { deploymentMarkers } from "../../backend/review/pipeline/markers.ts";
import { createReviewPipeline, type PipelineDeps } from "../../backend/review/pipeline/pipeline.ts";
import { queueRun } from "../../backend/review/queue/runs.ts";
import { reviewWorker } from "../../backend/review/queue/worker.ts";
import type { ModelDeps } from "../../backend/review/reviewers/ai/ai-pass.ts";
import { aiSdkModelProviders } from "../../backend/review/reviewers/ai/ai-sdk-provider.ts";
import { type CreateModelProvider, ModelError } from "../../backend/review/reviewers/ai/model-provider.ts";
import { loadBiome } from "../../backend/review/reviewers/builtin/biome.ts";
import { effectiveSettings } from "../../backend/settings/effective.ts";
import { DEFAULT_PRODUCT_NAME } from "../../shared/constants.ts";
import type { Finding } from "../../shared/contract/reviews.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { seedProject, startProTrial } from "../../tests/support/review-queue.ts";
import { type CorpusCase, headLine } from "./corpus.ts";
import { corpusReviewHost } from "./corpus-host.ts";
import type { CaseOutcome, ModelCalls, PostedFinding } from "./metrics.ts";
import type { QualityModel } from "./model.ts";

/**
 * Findings of this severity and above are posted. One below the product's default (major), because
 * the corpus plants minor defects too; info findings are notes, not claims of a defect.
 */
export const QUALITY_SEVERITY_THRESHOLD = "minor";

export interface QualityBenchOptions {
  cases: readonly CorpusCase[];
  /** The model of the AI pass; null for the built-in reviewer alone. */
  model: QualityModel | null;
}

export interface CaseRun {
  corpusCase: CorpusCase;
  outcome: CaseOutcome;
  /** Each run's end: `succeeded`, or `failed: <reason>` and the like. */
  statuses: [string, string];
}

export interface QualityBenchResult {
  runs: CaseRun[];
  durationMs: number;
}

/** Review answers the model gave since the last reset, and how many were valid on the first request. */
interface AnswerCount {
  answers: number;
  validFirstTry: number;
}

/**
 * The provider, counting its answers: `attempts` 1 is valid at once, 2 needed the repair request,
 * and an invalid_output failure is an answer that never became valid.
 */
function counted(create: CreateModelProvider, count: AnswerCount): CreateModelProvider {
  return (settings) => {
    const provider = create(settings);
    return {
      ...provider,
      async review(request) {
        try {
          const answer = await provider.review(request);
          count.answers++;
          if (answer.attempts === 1) count.validFirstTry++;
          return answer;
        } catch (error) {
          if (error instanceof ModelError && error.failure === "invalid_output") count.answers++;
          throw error;
        }
      },
    };
  };
}

/**
 * The pipeline's model dependency, the one place the AI pass is wired: the organisation's model is
 * the benchmark's. The built-in reviewer alone needs none.
 */
function modelDeps(model: QualityModel | null, count: AnswerCount): Pick<PipelineDeps, "models"> {
  if (!model) return {};
  const models: ModelDeps = {
    settingsFor: async () => model.settings,
    // The operator's own model, often on their machine or network: private addresses are its place.
    create: counted(aiSdkModelProviders({ policy: { allowPrivate: true } }), count),
    prices: model.prices,
    reviewsPerHour: null,
  };
  return { models };
}

/** The AI pass's tokens and cost over a case's runs, as the runs recorded them. */
async function modelCalls(db: Db, runIds: readonly string[], count: AnswerCount): Promise<ModelCalls> {
  const rows = await db
    .selectFrom("review_runs")
    .select(["ai_outcome", "ai_input_tokens", "ai_output_tokens", "ai_cost_micros"])
    .where("id", "in", runIds)
    .execute();
  const costs = rows.flatMap((row) => (row.ai_cost_micros === null ? [] : [row.ai_cost_micros]));
  return {
    ...count,
    inputTokens: rows.reduce((sum, row) => sum + (row.ai_input_tokens ?? 0), 0),
    outputTokens: rows.reduce((sum, row) => sum + (row.ai_output_tokens ?? 0), 0),
    costUsd: costs.length ? costs.reduce((sum, micros) => sum + micros, 0) / 1_000_000 : null,
    failedRuns: rows.filter((row) => row.ai_outcome === "failed").length,
  };
}

export async function runQualityBench(options: QualityBenchOptions): Promise<QualityBenchResult> {
  const started = performance.now();
  loadBiome();
  const db = await openDatabase({ kind: "pglite", dataDir: undefined });
  try {
    await migrateToLatest(db);
    const { orgId, projectId } = await seedProject(db);
    await startProTrial(db, orgId);
    const settings = await effectiveSettings(db, orgId, projectId);
    settings.comment_style.severity_threshold = QUALITY_SEVERITY_THRESHOLD;
    const host = corpusReviewHost(options.cases);
    const count: AnswerCount = { answers: 0, validFirstTry: 0 };
    const pipeline = createReviewPipeline({
      db,
      hostFor: async () => host,
      settings: async () => settings,
      clock: () => new Date(),
      productName: DEFAULT_PRODUCT_NAME,
      publicOrigin: "http://127.0.0.1",
      // A key for this run only: nothing it posts outlives it.
      markers: deploymentMarkers({ key: undefined, previousKeys: [], keyFile: undefined }),
      ...modelDeps(options.model, count),
    });
    const work = reviewWorker(db, pipeline, createLogger({ name: "quality-bench", level: "silent" }));

    const review = async (pullRequest: number, trigger: ReviewTrigger, command?: BotCommand) => {
      const { runId } = await queueRun(db, {
        orgId,
        projectId,
        pullRequest,
        trigger,
        command,
        headSha: trigger === "command" ? undefined : (await host.pullRequest(pullRequest)).headSha,
        deliveryId: `quality-${pullRequest}-${trigger}`,
      });
      await work({ runId, projectId, pullRequest }, 0);
      const run = await db
        .selectFrom("review_runs")
        .select(["status", "reason"])
        .where("id", "=", runId)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom("review_findings")
        .select(["delivery", "finding"])
        .where("run_id", "=", runId)
        .where("delivery", "in", ["inline", "summary"])
        .orderBy("id")
        .execute();
      return {
        runId,
        status: run.reason ? `${run.status}: ${run.reason}` : run.status,
        posted: rows.map((row) => ({ delivery: row.delivery, finding: row.finding as Finding })),
      };
    };

    const runs: CaseRun[] = [];
    for (const [index, corpusCase] of options.cases.entries()) {
      const number = index + 1;
      const toPosted = (posted: Awaited<ReturnType<typeof review>>["posted"]): PostedFinding[] =>
        posted.map(({ delivery, finding }) => ({
          path: finding.path,
          line: finding.line,
          quote: finding.quote,
          severity: finding.severity,
          category: finding.category ?? null,
          inline: delivery === "inline",
          ...(delivery === "inline" && finding.path && finding.line
            ? { lineText: headLine(corpusCase, finding.path, finding.line) }
            : {}),
        }));
      Object.assign(count, { answers: 0, validFirstTry: 0 });
      const first = await review(number, "opened");
      const second = await review(number, "command", "full review");
      runs.push({
        corpusCase,
        statuses: [first.status, second.status],
        outcome: {
          id: corpusCase.id,
          set: corpusCase.set,
          language: corpusCase.language,
          kind: corpusCase.kind,
          defects: corpusCase.defects,
          firstRun: toPosted(first.posted),
          secondRun: toPosted(second.posted),
          model: options.model ? await modelCalls(db, [first.runId, second.runId], count) : null,
        },
      });
    }
    return { runs, durationMs: performance.now() - started };
  } finally {
    await db.destroy();
  }
}
