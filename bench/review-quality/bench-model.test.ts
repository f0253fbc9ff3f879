import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelFinding } from "../../backend/review/reviewers/ai/model-provider.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../../tests/support/fake-model-servers.ts";
import { runQualityBench } from "./bench.ts";
import { type CorpusCase, headLine, loadCorpus } from "./corpus.ts";
import { computeMetrics } from "./metrics.ts";

const MODEL = "scripted-reviewer";
const KEY = "sk-quality-bench-test";

/** A finding the way a model answers it: on `line` of `path`, quoting that line at head. */
function finding(corpusCase: CorpusCase, path: string, line: number): ModelFinding {
  return {
    path,
    line,
    quote: headLine(corpusCase, path, line) ?? "",
    severity: "major",
    title: "Scripted finding",
    message: "Said by the scripted model.",
  };
}

/** The first head line of `path` holding `text`. */
function lineOf(corpusCase: CorpusCase, path: string, text: string): number {
  const index = (corpusCase.head.get(path) ?? "").split("\n").findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${corpusCase.id}: no "${text}" in ${path}`);
  return index + 1;
}

describe("the quality benchmark with a scripted model", () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer({ requireKey: KEY, usage: { inputTokens: 100, outputTokens: 20 } });
  });
  afterAll(() => server.close());

  it("measures recall, false positives, anchors, schema-valid answers, duplicates and tokens", async () => {
    const { cases } = await loadCorpus({
      only: [
        "go-04-inverted-error-check",
        "py-05-moving-average-range",
        "ts-01-user-search-sql",
        "ts-08-rename-price-helper",
      ],
    });
    const byId = (id: string) => cases.find((each) => each.id === id) as CorpusCase;
    const onDefect = (id: string) => {
      const corpusCase = byId(id);
      const [defect] = corpusCase.defects;
      return { findings: [finding(corpusCase, defect?.path ?? "", defect?.line ?? 0)] };
    };
    const series = byId("py-05-moving-average-range");
    const cart = byId("ts-08-rename-price-helper");
    // Each case is reviewed twice (opened, then `full review`), in the corpus' order; the model
    // answers the same both times, so the second run must post nothing again.
    const right = onDefect("go-04-inverted-error-check");
    const wrongLine = {
      findings: [finding(series, "metrics/series.py", lineOf(series, "metrics/series.py", "if not values:"))],
    };
    const sql = onDefect("ts-01-user-search-sql");
    const onClean = {
      findings: [finding(cart, "src/cart/summary.ts", lineOf(cart, "src/cart/summary.ts", "Total: "))],
    };
    server.script(
      { text: "Here are my findings: none of them in JSON" },
      { json: right },
      { json: right },
      { json: wrongLine },
      { json: wrongLine },
      { json: sql },
      { json: sql },
      { json: onClean },
      { json: onClean },
    );

    const { runs } = await runQualityBench({
      cases,
      model: {
        settings: {
          kind: "openai",
          baseUrl: server.baseUrl,
          model: MODEL,
          apiKey: KEY,
          inputTokenLimit: 32_000,
          monthlyBudgetCents: null,
        },
        prices: { [MODEL]: { input: 1, output: 5 } },
      },
    });
    expect(server.pending).toBe(0);
    expect(server.requests).toHaveLength(9);
    expect(runs.map(({ statuses }) => statuses)).toEqual(cases.map(() => ["succeeded", "succeeded"]));

    const metrics = computeMetrics(runs.map((run) => run.outcome));
    // The built-in reviewer's findings name their category and catch the inverted error check, the
    // window range and the SQL (the model's findings at those places merge into them); the model's
    // own findings name none, so its finding on a wrong line and the one on the clean case catch
    // nothing.
    expect(
      runs.flatMap((run) => run.outcome.firstRun).map(({ path, category }) => ({ path, category })),
    ).toEqual([
      { path: "internal/flags/flags.go", category: "logic" },
      { path: "metrics/series.py", category: null },
      { path: "metrics/series.py", category: "logic" },
      { path: "src/users/repository.ts", category: "security" },
      { path: "src/cart/summary.ts", category: null },
    ]);
    expect(metrics.recall).toEqual({ count: 3, total: 3, share: 1 });
    expect(metrics.precision).toEqual({ count: 3, total: 5, share: 0.6 });
    expect(metrics.withoutCategory).toBe(2);
    expect(metrics.falsePositives).toEqual({ onCleanCases: 1, perCleanPullRequest: 1, onDefectCases: 1 });
    expect(metrics.anchorsValid).toEqual({ count: 5, total: 5, share: 1 });
    expect(metrics.duplicates).toBe(0);
    // Eight reviews; the malformed first answer needed the repair request.
    expect(metrics.schemaValidFirstTry).toEqual({ count: 7, total: 8, share: 7 / 8 });
    // Nine requests of 100 in and 20 out; $1 and $5 per million: 200 micro-dollars each.
    expect(metrics.tokens).toEqual({ input: 900, output: 180, perRun: 1080 / 8 });
    expect(metrics.modelFailedRuns).toBe(0);
    expect(metrics.costUsd?.total).toBeCloseTo(0.0018, 10);
    expect(metrics.costUsd?.perRun).toBeCloseTo(0.000225, 10);
  }, 120_000);
});
