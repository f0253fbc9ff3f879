/**
 * The AI pass of a review (docs/review-engine.md, "AI pass"), between the built-in reviewer and
 * posting: checks the organisation's budget and hourly limit, reads the repository's instructions,
 * packs the numbered diff into the model's token limit, asks the model through the port, keeps the
 * findings whose quote is where they say, and records the model, tokens and cost on the run once. A run
 * started again after a crash reuses that record and never calls the model twice. A model failure
 * costs only the AI findings: the caller posts the built-in ones.
 */
import { MICROS_PER_CENT } from "../../../../shared/contract/ai-model.ts";
import type { Finding } from "../../../../shared/contract/reviews.ts";
import { takeModelCall } from "../../../ai-models/call-limits.ts";
import type { ReviewHost } from "../../../code-hosts/review-host.ts";
import type { Db } from "../../../db/database.ts";
import { type DiffFile, RightSideIndex } from "../../pipeline/diff.ts";
import { recordDecision } from "../../queue/runs.ts";
import type { DecisionLog } from "../../queue/worker.ts";
import { type AnchorResult, anchorFinding, pathsToConfirm } from "./anchor.ts";
import {
  type InstructionsFile,
  instructionsFileName,
  parseInstructionsFile,
  repositoryInstructions,
} from "./instructions.ts";
import {
  type CreateModelProvider,
  ModelError,
  type ModelReviewAnswer,
  type ModelSettings,
  type ModelSettingsReader,
  type ModelUsage,
} from "./model-provider.ts";
import { packDiff, tokensOf } from "./pack.ts";
import { costMicros, monthUsage, type PriceTable } from "./pricing.ts";
import { promptPreamble, REVIEW_SYSTEM_PROMPT, reviewPrompt } from "./prompt.ts";
import { type AiPassFacts, failureText, noPriceNote, overBudgetNote, overCallLimitNote } from "./summary.ts";

/** What the pipeline needs to run the AI pass; absent, reviews are built-in only. */
export interface ModelDeps {
  settingsFor: ModelSettingsReader;
  create: CreateModelProvider;
  prices: PriceTable;
  /**
   * AI passes one organisation may run an hour (AI_MODEL_REVIEWS_PER_HOUR), counted across
   * processes; null for none (the quality benchmark, which reviews its corpus back to back).
   */
  reviewsPerHour: number | null;
}

/** The decision-log step that records the pass's result once; a restarted run reads it back. */
export const AI_RESULT_STEP = "ai";

/** Tokens kept free for the answer: a quarter of the limit, at most this many. */
const ANSWER_RESERVE_MAX = 4096;
/** Per-finding outcomes and left-out files listed in the log, at most this many. */
const LISTED_MAX = 50;

export interface AiPassResult extends AiPassFacts {
  /** Anchored and moved findings, as Finding (source "ai"). */
  findings: Finding[];
}

export interface AiPassInput {
  db: Db;
  runId: string;
  orgId: string;
  host: ReviewHost;
  headSha: string;
  /** The files the built-in reviewer reviewed (skipped ones left out). */
  files: readonly DiffFile[];
  builtin: readonly Finding[];
  /** The review_instructions setting. */
  instructions: string;
  productName: string;
  now: Date;
  log: DecisionLog;
}

async function recordedResult(db: Db, runId: string): Promise<AiPassResult | undefined> {
  const row = await db
    .selectFrom("review_decisions")
    .select("detail")
    .where("run_id", "=", runId)
    .where("step", "=", AI_RESULT_STEP)
    .executeTakeFirst();
  return row?.detail as AiPassResult | undefined;
}

/** Writes the result on the run and in its log, together: once per run. */
async function record(db: Db, runId: string, result: AiPassResult, spentAt: Date | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("review_runs")
      .set({
        ai_outcome: result.outcome,
        ai_model: result.model,
        ai_input_tokens: result.usage?.inputTokens ?? null,
        ai_output_tokens: result.usage?.outputTokens ?? null,
        ai_cost_micros: result.costMicros,
        ai_note: result.note,
        ai_at: spentAt,
      })
      .where("id", "=", runId)
      .execute();
    await recordDecision(trx, runId, AI_RESULT_STEP, result.outcome, { ...result });
  });
}

/** An error's message for the log, cut short (the provider's and host's messages never carry keys). */
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** A file's text at head, or null when the host does not have it or cannot answer now. */
async function textAtHead(input: AiPassInput, path: string): Promise<string | null> {
  try {
    return await input.host.fileContent(path, input.headSha);
  } catch (error) {
    await input.log("ai.file", "unreadable", {
      path,
      error: errorText(error),
    });
    return null;
  }
}

async function readInstructionsFile(input: AiPassInput): Promise<InstructionsFile | undefined> {
  const name = instructionsFileName(input.productName);
  const text = await textAtHead(input, name);
  if (text === null) return undefined;
  const parsed = parseInstructionsFile(text);
  if (!parsed.ok) {
    await input.log("ai.instructions", "invalid", { file: name, error: parsed.error });
    return undefined;
  }
  await input.log("ai.instructions", "read", {
    file: name,
    path_instructions: parsed.file.path_instructions?.length ?? 0,
  });
  return parsed.file;
}

const emptyResult = (model: string): Omit<AiPassResult, "outcome" | "note"> => ({
  model,
  findings: [],
  anchored: 0,
  moved: 0,
  dropped: 0,
  leftOut: [],
  usage: null,
  costMicros: null,
});

/**
 * Runs the pass, or answers the result a previous attempt of the run recorded. Undefined when the
 * organisation has no model or there is nothing to send (logged; the review is built-in only).
 */
export async function runAiPass(deps: ModelDeps, input: AiPassInput): Promise<AiPassResult | undefined> {
  const { db, runId, log } = input;
  const recorded = await recordedResult(db, runId);
  if (recorded) {
    await log("ai.reused", recorded.outcome, { reason: "recorded by an earlier attempt of this run" });
    return recorded;
  }
  const settings = await deps.settingsFor(input.orgId);
  if (!settings) {
    await log("ai.model", "off", { reason: "the organisation has no AI model configured" });
    return undefined;
  }
  if (!input.files.length) {
    await log("ai.model", "off", { reason: "no reviewable file", model: settings.model });
    return undefined;
  }
  if (settings.monthlyBudgetCents !== null) {
    const { costMicros: spent } = await monthUsage(db, input.orgId, input.now);
    if (spent >= settings.monthlyBudgetCents * MICROS_PER_CENT) {
      const result = {
        ...emptyResult(settings.model),
        outcome: "over_budget" as const,
        note: overBudgetNote(settings.monthlyBudgetCents),
      };
      await record(db, runId, result, null);
      return result;
    }
  }
  if (deps.reviewsPerHour !== null) {
    const limit = { calls: deps.reviewsPerHour, windowSeconds: 3600 };
    const taken = await takeModelCall(db, input.orgId, "review", limit, input.now);
    if (!taken.ok) {
      const result = {
        ...emptyResult(settings.model),
        outcome: "over_call_limit" as const,
        note: overCallLimitNote(deps.reviewsPerHour),
      };
      await record(db, runId, result, null);
      return result;
    }
  }
  return review(deps, input, settings);
}

async function review(deps: ModelDeps, input: AiPassInput, settings: ModelSettings): Promise<AiPassResult> {
  const { db, runId, log } = input;
  const file = await readInstructionsFile(input);
  const paths = input.files.map((diffFile) => diffFile.path);
  // Sized with every candidate file's path instructions: the packed prompt's are never larger.
  const reserve = Math.min(ANSWER_RESERVE_MAX, Math.floor(settings.inputTokenLimit / 4));
  const fixed =
    tokensOf(REVIEW_SYSTEM_PROMPT) +
    tokensOf(
      reviewPrompt(
        promptPreamble(input.builtin, repositoryInstructions(input.instructions, file, paths)),
        "",
      ),
    );
  const budget = settings.inputTokenLimit - fixed - reserve;
  const packed = packDiff(input.files, Math.max(0, budget));
  await log("ai.pack", "packed", {
    model: settings.model,
    files: packed.included.length,
    tokens: packed.tokens,
    budget,
    left_out: packed.leftOut.slice(0, LISTED_MAX),
  });
  if (!packed.included.length) {
    const result = {
      ...emptyResult(settings.model),
      leftOut: packed.leftOut,
      outcome: "failed" as const,
      note: "no changed file fits in the model's input token limit",
    };
    await record(db, runId, result, null);
    return result;
  }

  const instructions = repositoryInstructions(input.instructions, file, packed.included);
  const prompt = reviewPrompt(promptPreamble(input.builtin, instructions), packed.text);
  const spentAt = input.now;
  const priced = (usage: ModelUsage) => {
    const cost = costMicros(deps.prices, settings.model, usage);
    return { usage, costMicros: cost, priceNote: cost === null ? noPriceNote(settings.model) : null };
  };
  let answer: ModelReviewAnswer;
  try {
    answer = await deps.create(settings).review({ system: REVIEW_SYSTEM_PROMPT, prompt });
  } catch (error) {
    const failure = error instanceof ModelError ? error.failure : "unexpected";
    const spent = priced(error instanceof ModelError ? error.usage : { inputTokens: 0, outputTokens: 0 });
    const result: AiPassResult = {
      ...emptyResult(settings.model),
      leftOut: packed.leftOut,
      outcome: "failed",
      usage: spent.usage,
      costMicros: spent.costMicros,
      note: failureText(failure),
    };
    await log("ai.review", "failed", {
      failure,
      error: errorText(error),
    });
    await record(db, runId, result, spentAt);
    return result;
  }

  const index = new RightSideIndex(input.files);
  const included = new Set(packed.included);
  const contents = new Map<string, string>();
  const findings = answer.review.findings;
  await Promise.all(
    pathsToConfirm(findings, index)
      .filter((path) => included.has(path))
      .map(async (path) => {
        const text = await textAtHead(input, path);
        if (text !== null) contents.set(path, text);
      }),
  );
  const anchored: AnchorResult[] = findings.map((model) =>
    included.has(model.path)
      ? anchorFinding(model, index, contents)
      : { path: model.path, line: model.line, outcome: "dropped", reason: "file not sent to the model" },
  );
  const count = (outcome: AnchorResult["outcome"]) =>
    anchored.filter((item) => item.outcome === outcome).length;
  await log("ai.anchor", "checked", {
    anchored: count("anchored"),
    moved: count("moved"),
    dropped: count("dropped"),
    findings: anchored.slice(0, LISTED_MAX).map(({ path, line, outcome, reason }) => ({
      path,
      line,
      outcome,
      ...(reason ? { reason } : {}),
    })),
  });
  const spent = priced(answer.usage);
  const result: AiPassResult = {
    model: settings.model,
    outcome: "reviewed",
    findings: anchored.flatMap((item) => (item.finding ? [item.finding] : [])),
    anchored: count("anchored"),
    moved: count("moved"),
    dropped: count("dropped"),
    leftOut: packed.leftOut,
    usage: spent.usage,
    costMicros: spent.costMicros,
    note: spent.priceNote,
  };
  await record(db, runId, result, spentAt);
  return result;
}
