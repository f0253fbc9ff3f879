import { describe, expect, it } from "vitest";
import {
  anchorHolds,
  type CaseOutcome,
  computeMetrics,
  type DefectLines,
  matchesDefect,
  type PostedFinding,
  recallTable,
} from "./metrics.ts";

const SQL: DefectLines = {
  path: "src/db.ts",
  line: 10,
  endLine: 12,
  severity: "critical",
  category: "security",
};
const LEAK: DefectLines = {
  path: "src/poll.ts",
  line: 5,
  endLine: 5,
  severity: "minor",
  category: "resource-leak",
};
const RACE: DefectLines = {
  path: "src/wallet.ts",
  line: 20,
  endLine: 20,
  severity: "major",
  category: "race",
};

/** A finding at `path:line`, in the category of the defect placed there by these tests. */
function at(path: string, line: number, extra: Partial<PostedFinding> = {}): PostedFinding {
  const category = path === "src/db.ts" ? "security" : path === "src/poll.ts" ? "resource-leak" : "race";
  return {
    path,
    line,
    quote: "x = 1;",
    severity: "major",
    category,
    inline: true,
    lineText: "x = 1;",
    ...extra,
  };
}

const outcome = (id: string, partial: Partial<CaseOutcome>): CaseOutcome => ({
  id,
  set: "written",
  language: "ts",
  kind: "defect",
  defects: [],
  firstRun: [],
  secondRun: [],
  model: null,
  ...partial,
});

describe("matchesDefect", () => {
  it("takes the same path within the defect's lines widened by two", () => {
    expect([7, 8, 10, 12, 14, 15].map((line) => matchesDefect(at("src/db.ts", line), SQL))).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(matchesDefect(at("src/other.ts", 10), SQL)).toBe(false);
    expect(matchesDefect({ ...at("src/db.ts", 10), line: null }, SQL)).toBe(false);
  });

  it("takes only a finding of the defect's category", () => {
    expect(matchesDefect(at("src/db.ts", 10, { category: "security" }), SQL)).toBe(true);
    expect(matchesDefect(at("src/db.ts", 10, { category: "logic" }), SQL)).toBe(false);
    expect(matchesDefect(at("src/db.ts", 10, { category: "hygiene" }), SQL)).toBe(false);
    expect(matchesDefect(at("src/db.ts", 10, { category: null }), SQL)).toBe(false);
    expect(matchesDefect({ path: "src/poll.ts", line: 6, category: "resource-leak" }, LEAK)).toBe(true);
  });
});

describe("recallTable", () => {
  it("counts recall by category and language, a wrong-category finding at the place being a miss", () => {
    const table = recallTable([
      { language: "py", defects: [SQL], findings: [{ path: "src/db.ts", line: 11, category: "logic" }] },
      { language: "go", defects: [RACE], findings: [{ path: "src/wallet.ts", line: 22, category: "race" }] },
      { language: "go", defects: [LEAK], findings: [] },
    ]);
    expect(table.recall).toEqual({ count: 1, total: 3, share: 1 / 3 });
    expect(table.byCategory.security).toEqual({ count: 0, total: 1, share: 0 });
    expect(table.byCategory.race).toEqual({ count: 1, total: 1, share: 1 });
    expect(table.byLanguage.py).toEqual({ count: 0, total: 1, share: 0 });
    expect(table.byLanguage.go).toEqual({ count: 1, total: 2, share: 0.5 });
    expect(table.byLanguage.ts).toEqual({ count: 0, total: 0, share: null });
  });
});

describe("anchorHolds", () => {
  it("compares the quote with the head line, white space collapsed", () => {
    expect(anchorHolds("const a =  1;", "    const a = 1;")).toBe(true);
    expect(anchorHolds("const a = 1;", "const a = 2;")).toBe(false);
    expect(anchorHolds("const a = 1;", undefined)).toBe(false);
    expect(anchorHolds(null, "const a = 1;")).toBe(false);
  });

  it("reads stars as masked characters and an ellipsis as a quote cut short", () => {
    expect(anchorHolds('TOKEN = "ghp_****"', 'TOKEN = "ghp_abcd"')).toBe(true);
    expect(anchorHolds('TOKEN = "ghp_****"', 'TOKEN = "ghp_abcde"')).toBe(false);
    expect(anchorHolds("const long = [1, 2…", "const long = [1, 2, 3];")).toBe(true);
    expect(anchorHolds("const long = [9…", "const long = [1, 2, 3];")).toBe(false);
  });
});

describe("computeMetrics", () => {
  const outcomes: CaseOutcome[] = [
    // Caught (line 8 is within 10 - 2), plus one stray finding on the same case.
    outcome("ts-01", {
      defects: [SQL],
      firstRun: [at("src/db.ts", 8), at("src/db.ts", 30)],
      secondRun: [at("src/db.ts", 8)],
    }),
    // Missed: the finding is on the wrong line.
    outcome("ts-02", { defects: [LEAK], firstRun: [at("src/poll.ts", 9, { lineText: "y = 2;" })] }),
    // Two findings on one defect: it is caught once, both are true positives.
    outcome("go-01", {
      language: "go",
      defects: [RACE],
      firstRun: [at("src/wallet.ts", 19), at("src/wallet.ts", 21)],
    }),
    outcome("py-08", { kind: "clean", firstRun: [at("app.py", 3), at("app.py", 4, { inline: false })] }),
    outcome("py-09", { kind: "clean" }),
  ];
  const metrics = computeMetrics(outcomes);

  it("counts recall overall, by severity and by category", () => {
    expect(metrics.cases).toEqual({ total: 5, defect: 3, clean: 2 });
    expect(metrics.recall).toEqual({ count: 2, total: 3, share: 2 / 3 });
    expect(metrics.recallBySeverity).toEqual({
      critical: { count: 1, total: 1, share: 1 },
      major: { count: 1, total: 1, share: 1 },
      minor: { count: 0, total: 1, share: 0 },
    });
    expect(metrics.recallByCategory.security).toEqual({ count: 1, total: 1, share: 1 });
    expect(metrics.recallByCategory["resource-leak"]).toEqual({ count: 0, total: 1, share: 0 });
    expect(metrics.recallByCategory.logic).toEqual({ count: 0, total: 0, share: null });
    expect(metrics.recallByLanguage.ts).toEqual({ count: 1, total: 2, share: 0.5 });
    expect(metrics.recallByLanguage.go).toEqual({ count: 1, total: 1, share: 1 });
    expect(metrics.withoutCategory).toBe(0);
  });

  it("counts a finding of another category at the defect's place as a miss and a stray", () => {
    const wrong = computeMetrics([
      outcome("ts-01", { defects: [SQL], firstRun: [at("src/db.ts", 10, { category: "logic" })] }),
      outcome("ts-02", { defects: [LEAK], firstRun: [at("src/poll.ts", 5, { category: null })] }),
    ]);
    expect(wrong.recall).toEqual({ count: 0, total: 2, share: 0 });
    expect(wrong.precision).toEqual({ count: 0, total: 2, share: 0 });
    expect(wrong.falsePositives.onDefectCases).toBe(2);
    expect(wrong.withoutCategory).toBe(1);
  });

  it("counts precision over every posted finding, and F1", () => {
    expect(metrics.precision).toEqual({ count: 3, total: 7, share: 3 / 7 });
    const [p, r] = [3 / 7, 2 / 3];
    expect(metrics.f1).toBeCloseTo((2 * p * r) / (p + r), 10);
  });

  it("counts false positives per clean pull request, and those on defect cases apart", () => {
    expect(metrics.falsePositives).toEqual({ onCleanCases: 2, perCleanPullRequest: 1, onDefectCases: 2 });
  });

  it("checks the anchors of inline comments only", () => {
    // Six inline comments; the one on src/poll.ts:9 quotes "x = 1;" on a line holding "y = 2;".
    expect(metrics.anchorsValid).toEqual({ count: 5, total: 6, share: 5 / 6 });
  });

  it("counts the second run's findings on spots the first run commented on as duplicates", () => {
    expect(metrics.duplicates).toBe(1);
    const fresh = computeMetrics([outcome("a", { firstRun: [at("a.ts", 1)], secondRun: [at("a.ts", 2)] })]);
    expect(fresh.duplicates).toBe(0);
  });

  it("has no model figures for the built-in reviewer alone", () => {
    expect(metrics.schemaValidFirstTry).toBeNull();
    expect(metrics.tokens).toBeNull();
    expect(metrics.modelFailedRuns).toBeNull();
    expect(metrics.costUsd).toBeNull();
  });

  it("sums the model's answers, tokens and cost per run", () => {
    const withModel = computeMetrics([
      outcome("a", {
        model: {
          answers: 2,
          validFirstTry: 1,
          inputTokens: 1000,
          outputTokens: 200,
          costUsd: 0.01,
          failedRuns: 0,
        },
      }),
      outcome("b", {
        kind: "clean",
        model: {
          answers: 1,
          validFirstTry: 1,
          inputTokens: 600,
          outputTokens: 200,
          costUsd: null,
          failedRuns: 1,
        },
      }),
    ]);
    expect(withModel.schemaValidFirstTry).toEqual({ count: 2, total: 3, share: 2 / 3 });
    expect(withModel.modelFailedRuns).toBe(1);
    expect(withModel.tokens).toEqual({ input: 1600, output: 400, perRun: 500 });
    expect(withModel.costUsd).toEqual({ total: 0.01, perRun: 0.0025 });
  });
});
