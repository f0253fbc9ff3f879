import { describe, expect, it } from "vitest";
import { runQualityBench } from "./bench.ts";
import { loadCorpus } from "./corpus.ts";
import { computeMetrics } from "./metrics.ts";

describe("the quality benchmark with the built-in reviewer alone", () => {
  it("runs the pipeline twice per case and measures what it posted", async () => {
    const { cases } = await loadCorpus({
      only: [
        "ts-02-github-token",
        "go-05-slack-token",
        "py-01-report-filter-sql",
        "ts-08-rename-price-helper",
      ],
    });
    const { runs } = await runQualityBench({ cases, model: null });
    expect(runs.map(({ statuses }) => statuses)).toEqual(cases.map(() => ["succeeded", "succeeded"]));

    const token = runs.find((run) => run.corpusCase.id === "ts-02-github-token")?.outcome;
    // The token line, quoted with the secret masked.
    expect(token?.firstRun).toEqual([
      expect.objectContaining({
        path: "src/releases/client.ts",
        line: 2,
        severity: "critical",
        inline: true,
      }),
    ]);
    expect(token?.firstRun[0]?.quote).toMatch(/^const GITHUB_TOKEN = "ghp_\*+";$/);

    const metrics = computeMetrics(runs.map((run) => run.outcome));
    // The two committed tokens and the SQL formatted from a parameter (the rule engine) are caught.
    expect(metrics.recall).toEqual({ count: 3, total: 3, share: 1 });
    expect(metrics.precision).toEqual({ count: 3, total: 3, share: 1 });
    expect(metrics.falsePositives).toEqual({ onCleanCases: 0, perCleanPullRequest: 0, onDefectCases: 0 });
    expect(metrics.anchorsValid).toEqual({ count: 3, total: 3, share: 1 });
    expect(metrics.duplicates).toBe(0);
    expect(metrics.schemaValidFirstTry).toBeNull();
  }, 120_000);
});
