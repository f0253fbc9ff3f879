import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import { type MemoryReviewHost, memoryReviewHost } from "../../../tests/support/memory-review-host.ts";
import { hunk } from "../../../tests/support/review-files.ts";
import { testMarkers } from "../../../tests/support/review-markers.ts";
import {
  decisionSteps,
  findingRows,
  openPipelineDatabase,
  PIPELINE_NOW,
  pullRequestInfo,
  queueAndWork,
  rerunAfterCrashWhilePosting,
  runRow,
} from "../../../tests/support/review-pipeline-runs.ts";
import { answer, scriptedModel } from "../../../tests/support/scripted-model.ts";
import type { Db } from "../../db/database.ts";
import { effectiveSettings } from "../../settings/effective.ts";
import type { BotCommand, ReviewTrigger } from "../model.ts";
import type { ReviewSettings } from "../review-settings.ts";
import { ModelError, type ModelFinding, type ModelSettings } from "../reviewers/ai/model-provider.ts";
import { createReviewPipeline } from "./pipeline.ts";

const BASE = "a".repeat(40);
const HEAD = "1".repeat(40);

const APP_PATCH = hunk(["+export const add = (a: number, b: number) => a + b;", "+debugger;"], 1, 0);
const USERS_LINES = [
  'import { pool } from "./pool";',
  "export async function findUser(id: string) {",
  "  const client = await pool.connect();",
  "  const rows = await client.query(SELECT_USER_BY_ID + id);",
  "  return rows;",
  "}",
];
const USERS_PATCH = hunk(
  USERS_LINES.map((line) => `+${line}`),
  1,
  0,
);

const INJECTION: ModelFinding = {
  path: "src/db/users.ts",
  line: 4,
  quote: USERS_LINES[3] as string,
  severity: "critical",
  title: "SQL injection",
  message: "The id is pasted into the query; pass it as a parameter.",
};
const LEAK: ModelFinding = {
  path: "src/db/users.ts",
  line: 3,
  quote: "const client = await pool.connect();",
  severity: "major",
  title: "Connection leak",
  message: "The client is never released back to the pool.",
};

describe.each(TEST_DATABASE_KINDS)("the review pipeline's AI pass on %s", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let orgId: string;
  let projectId: string;
  let host: MemoryReviewHost;
  let settings: ReviewSettings;
  let model: ModelSettings | null;
  let configured: ModelSettings;
  let model$: ReturnType<typeof scriptedModel>;
  let reviewsPerHour: number | null;
  let now: Date;

  beforeEach(async () => {
    ({ db, drop, orgId, projectId } = await openPipelineDatabase(kind));
    settings = await effectiveSettings(db, orgId, projectId);
    settings.comment_style.severity_threshold = "info";
    model = configured = {
      kind: "openai-compatible",
      baseUrl: "http://127.0.0.1:9/v1",
      model: "gpt-test",
      apiKey: null,
      inputTokenLimit: 100_000,
      monthlyBudgetCents: null,
    };
    model$ = scriptedModel([]);
    reviewsPerHour = null;
    now = PIPELINE_NOW;
    host = memoryReviewHost(pullRequestInfo("Find users", HEAD, BASE));
    host.diffs.set(`${BASE}...${HEAD}`, [
      { filename: "src/app.ts", status: "added", additions: 2, deletions: 0, patch: APP_PATCH },
      { filename: "src/db/users.ts", status: "added", additions: 6, deletions: 0, patch: USERS_PATCH },
    ]);
    host.contents.set(`${HEAD}:src/db/users.ts`, `${USERS_LINES.join("\n")}\n`);
  });

  afterEach(async () => {
    await db.destroy();
    await drop();
  });

  const pipeline = () =>
    createReviewPipeline({
      db,
      hostFor: async () => host,
      settings: async () => settings,
      clock: () => now,
      productName: "Argus",
      publicOrigin: "https://argus.test",
      markers: testMarkers,
      models: {
        settingsFor: async () => model,
        create: model$.create,
        prices: { "gpt-test": { input: 2, output: 10 } },
        reviewsPerHour,
      },
    });

  const run = (trigger: ReviewTrigger = "opened", command?: BotCommand, attempt = 0) =>
    queueAndWork(db, pipeline(), { orgId, projectId, trigger, command, headSha: HEAD }, attempt);

  const runOf = (runId: string) => runRow(db, runId);
  const decision = (runId: string, step: string) =>
    db
      .selectFrom("review_decisions")
      .select(["outcome", "detail"])
      .where("run_id", "=", runId)
      .where("step", "=", step)
      .executeTakeFirst();
  const steps = (runId: string) => decisionSteps(db, runId);
  const findings = (runId: string) => findingRows(db, runId);

  it("posts grounded AI findings inline next to the built-in ones and records model, tokens and cost", async () => {
    model$ = scriptedModel([answer([INJECTION], 12_000, 300)]);
    const runId = await run();

    const [request] = model$.requests;
    expect(request?.system).toContain("Prefer not reporting over guessing");
    // The numbered diff, and the built-in findings as grounding.
    expect(request?.prompt).toContain("## File: src/db/users.ts (added)");
    expect(request?.prompt).toContain("4 +  const rows = await client.query(");
    expect(request?.prompt).toMatch(
      /# Already reported by the built-in reviewer\n- src\/app\.ts:2 \[markers\/debugger/,
    );

    const [review] = host.reviews;
    expect(review?.comments.map((comment) => [comment.path, comment.line])).toEqual([
      ["src/db/users.ts", 4],
      ["src/app.ts", 2],
    ]);
    expect(review?.comments[0]?.body).toContain("SQL injection: The id is pasted into the query");
    expect(review?.summary).toContain(
      "**AI review** (gpt-test): 1 finding on its line, 0 not on a changed line the model named (no line comment), 0 dropped",
    );
    expect(review?.summary).toContain("12,000 input and 300 output tokens, $0.0270.");
    expect(
      (await findings(runId)).map((row) => [row.finding.source, row.finding.ruleId, row.delivery]),
    ).toEqual([
      ["ai", "ai/review", "inline"],
      ["builtin", "markers/debugger", "inline"],
    ]);
    expect(await runOf(runId)).toMatchObject({
      status: "succeeded",
      ai_outcome: "reviewed",
      ai_model: "gpt-test",
      ai_input_tokens: 12_000,
      ai_output_tokens: 300,
      ai_cost_micros: 27_000,
      ai_note: null,
    });
    expect((await runOf(runId)).ai_at?.toISOString()).toBe(PIPELINE_NOW.toISOString());
  });

  it("moves a finding whose quote is on another line to the summary, drops one quoting code that is not there, and leaves out one on a built-in finding's line", async () => {
    model$ = scriptedModel([
      answer([
        { ...LEAK, line: 5 },
        { ...INJECTION, quote: "eval(request.body);" },
        { ...INJECTION, path: "src/app.ts", line: 2, quote: "debugger;", title: "Debugger left in" },
      ]),
    ]);
    const runId = await run();
    const anchor = await decision(runId, "ai.anchor");
    expect(anchor?.detail).toMatchObject({
      anchored: 1,
      moved: 1,
      dropped: 1,
      findings: [
        { path: "src/db/users.ts", line: 5, outcome: "moved", reason: "quote is at line 3" },
        { path: "src/db/users.ts", line: 4, outcome: "dropped", reason: "quote not in the file" },
        { path: "src/app.ts", line: 2, outcome: "anchored" },
      ],
    });
    expect((await decision(runId, "ai.merge"))?.detail).toMatchObject({ ai: 2, same_line_as_builtin: 1 });
    const [review] = host.reviews;
    expect(review?.comments.map((comment) => comment.body)).toEqual([
      expect.stringContaining("markers/debugger"),
    ]);
    expect(review?.summary).toContain("`src/db/users.ts` `ai/review`: Line 3: Connection leak");
    expect(review?.summary).not.toContain("eval(");
    expect(
      (await findings(runId)).map((row) => [row.finding.source, row.finding.line, row.delivery]),
    ).toEqual([
      ["builtin", 2, "inline"],
      ["ai", null, "summary"],
    ]);
  });

  it("skips the AI pass once the month's spend reaches the budget, posting the built-in findings with a note", async () => {
    configured.monthlyBudgetCents = 100;
    const spent = async (micros: number, at: Date) =>
      db
        .insertInto("review_runs")
        .values({
          org_id: orgId,
          project_id: projectId,
          pull_request: 99,
          trigger: "opened",
          status: "succeeded",
          ai_outcome: "reviewed",
          ai_model: "gpt-test",
          ai_cost_micros: micros,
          ai_at: at,
        })
        .execute();
    // Last month's spend does not count; this month's adds up to the cap exactly.
    await spent(5_000_000, new Date("2026-10-31T23:59:59Z"));
    await spent(600_000, new Date("2026-11-01T00:00:00Z"));
    await spent(400_000, new Date("2026-11-19T08:00:00Z"));
    const runId = await run();
    expect(model$.requests).toHaveLength(0);
    expect(host.reviews[0]?.comments.map((comment) => comment.line)).toEqual([2]);
    expect(host.reviews[0]?.summary).toContain(
      "The AI review did not run: the organisation's monthly AI budget ($1.00) is spent. The built-in findings are posted.",
    );
    expect(await runOf(runId)).toMatchObject({
      ai_outcome: "over_budget",
      ai_cost_micros: null,
      ai_at: null,
    });
    expect(await steps(runId)).toContain("ai: over_budget");
  });

  it("skips the AI pass once the organisation's AI reviews of the hour are used up, and runs it the next hour", async () => {
    reviewsPerHour = 2;
    model$ = scriptedModel([answer([]), answer([]), answer([])]);
    // Each run gets a pipeline of its own, as separate processes would: the count is in the database.
    await run();
    await run("command", "full review");
    const limited = await run("command", "full review");
    expect(model$.requests).toHaveLength(2);
    expect(host.reviews[2]?.summary).toContain(
      "The AI review did not run: the organisation's limit of 2 AI reviews an hour is reached (AI_MODEL_REVIEWS_PER_HOUR). The built-in findings are posted.",
    );
    expect(await runOf(limited)).toMatchObject({
      status: "succeeded",
      ai_outcome: "over_call_limit",
      ai_cost_micros: null,
      ai_at: null,
    });
    expect(await steps(limited)).toContain("ai: over_call_limit");

    now = new Date(PIPELINE_NOW.getTime() + 60 * 60 * 1000);
    await run("command", "full review");
    expect(model$.requests).toHaveLength(3);
  });

  it("runs the AI pass under the budget", async () => {
    configured.monthlyBudgetCents = 100;
    model$ = scriptedModel([answer([])]);
    await run();
    expect(model$.requests).toHaveLength(1);
  });

  it("posts the built-in findings with a note when the model fails, recording the tokens it spent", async () => {
    model$ = scriptedModel([
      new ModelError("invalid_output", "The answer did not match the schema", {
        usage: { inputTokens: 5_000, outputTokens: 800 },
      }),
    ]);
    const runId = await run();
    expect(await runOf(runId)).toMatchObject({
      status: "succeeded",
      findings_posted: 1,
      ai_outcome: "failed",
      ai_input_tokens: 5_000,
      ai_output_tokens: 800,
      ai_cost_micros: 18_000,
      ai_note: "the model's answer was not a valid list of findings, even after a repair request",
    });
    expect(host.reviews[0]?.comments.map((comment) => comment.line)).toEqual([2]);
    expect(host.reviews[0]?.summary).toContain(
      "The AI review did not run: the model's answer was not a valid",
    );
    expect((await decision(runId, "ai.review"))?.detail).toMatchObject({ failure: "invalid_output" });
  });

  it("never calls the model twice nor counts its tokens twice when a run is started again after a crash", async () => {
    model$ = scriptedModel([answer([INJECTION], 12_000, 300)]);
    const runId = await rerunAfterCrashWhilePosting(db, pipeline, host, { orgId, projectId, headSha: HEAD });
    expect(model$.requests).toHaveLength(1);
    expect(host.reviews).toHaveLength(1);
    expect(await runOf(runId)).toMatchObject({
      status: "succeeded",
      ai_input_tokens: 12_000,
      ai_cost_micros: 27_000,
    });
    expect(await steps(runId)).toContain("ai.reused: reviewed");
    expect((await steps(runId)).filter((step) => step === "ai: reviewed")).toHaveLength(1);
    // The AI finding is recognised on the pull request by its fingerprint: not posted again.
    expect((await findings(runId)).map((row) => [row.finding.source, row.delivery])).toEqual([
      ["ai", "duplicate"],
      ["builtin", "duplicate"],
    ]);
  });

  it("gives the model the review_instructions setting and the .argus.yaml file's instructions for matching paths", async () => {
    settings.review_scope.review_instructions = "Money is in integer cents.";
    host.contents.set(
      `${HEAD}:.argus.yaml`,
      [
        "instructions: Our ORM escapes nothing.",
        "path_instructions:",
        "  - path: src/db/**",
        "    instructions: Every query must be parameterised.",
        "  - path: '*.py'",
        "    instructions: Python 3.12 only.",
      ].join("\n"),
    );
    model$ = scriptedModel([answer([])]);
    const runId = await run();
    const prompt = model$.requests[0]?.prompt ?? "";
    expect(prompt).toContain(
      "# The repository's instructions\n\nMoney is in integer cents.\n\nOur ORM escapes nothing.\n\nFor src/db/users.ts (src/db/**):\nEvery query must be parameterised.",
    );
    expect(prompt).not.toContain("Python 3.12");
    expect(await decision(runId, "ai.instructions")).toMatchObject({
      outcome: "read",
      detail: { file: ".argus.yaml", path_instructions: 2 },
    });
  });

  it("logs and ignores an invalid .argus.yaml", async () => {
    host.contents.set(`${HEAD}:.argus.yaml`, "instructions: 42\n");
    model$ = scriptedModel([answer([])]);
    const runId = await run();
    expect(model$.requests).toHaveLength(1);
    expect(model$.requests[0]?.prompt).not.toContain("# The repository's instructions");
    expect(await decision(runId, "ai.instructions")).toMatchObject({
      outcome: "invalid",
      detail: { file: ".argus.yaml", error: expect.stringContaining("instructions") },
    });
  });

  it("goes on without the instructions file when the code host fails to give it", async () => {
    const fileContent = host.fileContent;
    host.fileContent = async (path, sha) => {
      if (path === ".argus.yaml") throw new Error("GitHub answered 502");
      return fileContent(path, sha);
    };
    model$ = scriptedModel([answer([INJECTION])]);
    const runId = await run();
    expect(model$.requests).toHaveLength(1);
    expect(await decision(runId, "ai.file")).toMatchObject({
      outcome: "unreadable",
      detail: { path: ".argus.yaml", error: "GitHub answered 502" },
    });
    expect(host.reviews[0]?.comments.map((comment) => comment.line)).toEqual([4, 2]);
  });

  it("names the files left out for the model's token limit in the summary and the log", async () => {
    const big = Array.from({ length: 400 }, (_, index) => `+export const value${index} = compute(${index});`);
    host.diffs.get(`${BASE}...${HEAD}`)?.push({
      filename: "src/generated-by-hand.ts",
      status: "added",
      additions: big.length,
      deletions: 0,
      patch: hunk(big, 1, 0),
    });
    configured.inputTokenLimit = 3_000;
    model$ = scriptedModel([answer([])]);
    const runId = await run();
    expect(model$.requests[0]?.prompt).toContain("## File: src/db/users.ts");
    expect(model$.requests[0]?.prompt).not.toContain("value0");
    expect((await decision(runId, "ai.pack"))?.detail).toMatchObject({
      files: 2,
      left_out: ["src/generated-by-hand.ts"],
    });
    expect(host.reviews[0]?.summary).toContain(
      "Not sent to the model (over its token limit): `src/generated-by-hand.ts`.",
    );
  });

  it("posts at most max_findings, the most severe first, and counts the rest as over the limit", async () => {
    settings.comment_style.max_findings = 2;
    model$ = scriptedModel([answer([LEAK, INJECTION])]);
    const runId = await run();
    expect((await findings(runId)).map((row) => [row.finding.severity, row.delivery])).toEqual([
      ["critical", "inline"],
      ["major", "inline"],
      ["major", "not_posted"],
    ]);
    expect(host.reviews[0]?.comments).toHaveLength(2);
    expect(host.reviews[0]?.summary).toContain("2 new findings, 1 more over the per-review limit of 2");
    const posted = await db
      .selectFrom("review_decisions")
      .select("detail")
      .where("run_id", "=", runId)
      .where("outcome", "=", "posted")
      .executeTakeFirstOrThrow();
    expect(posted.detail).toMatchObject({ inline: 2, not_posted: 1, over_limit: 1 });
  });

  // `review` is what POST /api/reviews/{runId}/retry queues: with nothing pushed since the last
  // review it covers the whole pull request again, as `full review` does.
  it.each(["full review", "review"] as const)(
    "posts no duplicates when the same head is reviewed again (%s) and the model words its finding differently",
    async (command) => {
      model$ = scriptedModel([
        answer([INJECTION]),
        answer([
          { ...INJECTION, severity: "major", title: "Injectable query", quote: `    ${INJECTION.quote}` },
        ]),
      ]);
      await run();
      const again = await run("command", command);
      expect(model$.requests).toHaveLength(2);
      expect(host.reviews).toHaveLength(2);
      expect(host.reviews[1]?.comments).toEqual([]);
      expect((await findings(again)).map((row) => [row.finding.source, row.delivery])).toEqual([
        ["builtin", "duplicate"],
        ["ai", "duplicate"],
      ]);
      expect(await runOf(again)).toMatchObject({ ai_outcome: "reviewed" });
    },
  );

  it("reviews with the built-in reviewer alone when the organisation has no model", async () => {
    model = null;
    const runId = await run();
    expect(model$.requests).toHaveLength(0);
    expect(await steps(runId)).toContain("ai.model: off");
    expect(host.reviews[0]?.summary).not.toContain("AI review");
    expect(await runOf(runId)).toMatchObject({ ai_outcome: null });
  });
});
