import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { FINDING_QUOTE_MAX, findingSchema } from "../../../shared/contract/reviews.ts";
import { createFinding, fingerprint, sortAndDedupe } from "./findings.ts";

describe("fingerprint", () => {
  it("is the same when the line moves or is re-indented, since the line number is not part of it", () => {
    const before = createFinding({
      ruleId: "markers/debugger",
      severity: "major",
      category: "correctness",
      path: "src/a.ts",
      at: { line: 10, text: "  debugger;" },
      message: "m",
    });
    const after = createFinding({
      ruleId: "markers/debugger",
      severity: "major",
      category: "correctness",
      path: "src/a.ts",
      at: { line: 42, text: "\tdebugger;  " },
      message: "m",
    });
    expect(after.line).not.toBe(before.line);
    expect(after.fingerprint).toBe(before.fingerprint);
  });

  it("differs by rule, path and line content", () => {
    const base = fingerprint("markers/debugger", "a.ts", "debugger;");
    expect(fingerprint("markers/conflict", "a.ts", "debugger;")).not.toBe(base);
    expect(fingerprint("markers/debugger", "b.ts", "debugger;")).not.toBe(base);
    expect(fingerprint("markers/debugger", "a.ts", "debugger; // later")).not.toBe(base);
    // The separator keeps "a" + "b/c" apart from "a/b" + "c".
    expect(fingerprint("a", "b/c", null)).not.toBe(fingerprint("a/b", "c", null));
  });

  it("uses the line as the diff has it, not a masked quote", () => {
    const one = createFinding({
      ruleId: "secrets/x",
      severity: "critical",
      category: "correctness",
      path: "a.ts",
      at: { line: 1, text: 'k = "secret-one"', quote: 'k = "*****"' },
      message: "m",
    });
    const two = createFinding({
      ruleId: "secrets/x",
      severity: "critical",
      category: "correctness",
      path: "a.ts",
      at: { line: 2, text: 'k = "secret-two"', quote: 'k = "*****"' },
      message: "m",
    });
    expect(one.quote).toBe(two.quote);
    expect(one.fingerprint).not.toBe(two.fingerprint);
  });
});

describe("createFinding", () => {
  it("makes findings the shared schema accepts: on a line, on a file, on the pull request", () => {
    const onLine = createFinding({
      ruleId: "r/a",
      severity: "minor",
      category: "correctness",
      path: "a.ts",
      at: { line: 3, text: "x" },
      message: "m",
    });
    const onFile = createFinding({
      ruleId: "r/b",
      severity: "major",
      category: "security",
      path: ".env",
      message: "m",
    });
    const onPullRequest = createFinding({
      ruleId: "r/c",
      severity: "info",
      category: "hygiene",
      message: "m",
    });
    for (const finding of [onLine, onFile, onPullRequest])
      expect(v.parse(findingSchema, finding)).toEqual(finding);
    expect(onLine).toMatchObject({ path: "a.ts", line: 3, quote: "x", source: "builtin" });
    expect(onFile).toMatchObject({ path: ".env", line: null, quote: null });
    expect(onPullRequest).toMatchObject({ path: null, line: null, quote: null });
  });

  it("carries the category, CWE id and fix hint, and leaves out those not given", () => {
    const finding = createFinding({
      ruleId: "sql-injection/js-raw-query",
      severity: "critical",
      category: "security",
      cwe: "CWE-89",
      fix: "Pass the values as parameters.",
      path: "a.ts",
      at: { line: 2, text: "db.query(sql)" },
      message: "m",
    });
    expect(v.parse(findingSchema, finding)).toMatchObject({
      category: "security",
      cwe: "CWE-89",
      fix: "Pass the values as parameters.",
    });
    const ai = createFinding({ ruleId: "ai/review", severity: "minor", source: "ai", message: "m" });
    expect(Object.keys(ai)).not.toContain("category");
    expect(Object.keys(ai)).not.toContain("cwe");
  });

  it("cuts a long line in the quote but fingerprints the whole line", () => {
    const long = "x".repeat(FINDING_QUOTE_MAX * 3);
    const finding = createFinding({
      ruleId: "r/a",
      severity: "minor",
      category: "correctness",
      path: "a.js",
      at: { line: 1, text: long },
      message: "m",
    });
    expect(finding.quote).toHaveLength(FINDING_QUOTE_MAX);
    expect(finding.quote?.endsWith("…")).toBe(true);
    expect(finding.fingerprint).toBe(fingerprint("r/a", "a.js", long));
    expect(v.safeParse(findingSchema, finding).success).toBe(true);
  });
});

describe("findingSchema", () => {
  it("refuses a line without a quote and a line without a path", () => {
    const finding = createFinding({
      ruleId: "r/a",
      severity: "minor",
      category: "correctness",
      path: "a.ts",
      at: { line: 3, text: "x" },
      message: "m",
    });
    expect(v.safeParse(findingSchema, { ...finding, quote: null }).success).toBe(false);
    expect(v.safeParse(findingSchema, { ...finding, path: null }).success).toBe(false);
    expect(v.safeParse(findingSchema, { ...finding, severity: "blocker" }).success).toBe(false);
    expect(v.safeParse(findingSchema, { ...finding, fingerprint: "abc" }).success).toBe(false);
  });
});

describe("sortAndDedupe", () => {
  const make = (
    ruleId: string,
    severity: "critical" | "major" | "minor" | "info",
    line: number,
    text: string,
  ) =>
    createFinding({
      ruleId,
      severity,
      category: "correctness",
      path: "a.ts",
      at: { line, text },
      message: "m",
    });

  it("keeps one finding per place, and lists the most severe first", () => {
    const findings = sortAndDedupe([
      make("markers/lint-disable", "minor", 9, "// eslint-disable-line"),
      make("markers/debugger", "major", 12, "debugger;"),
      make("markers/debugger", "major", 12, "debugger;"),
      make("secrets/github", "critical", 50, "token"),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.line])).toEqual([
      ["secrets/github", 50],
      ["markers/debugger", 12],
      ["markers/lint-disable", 9],
    ]);
  });

  it("comments on every identical line, each with its own fingerprint, the same on every run", () => {
    const first = make("markers/debugger", "major", 12, "debugger;");
    const review = () =>
      sortAndDedupe([
        make("markers/debugger", "major", 40, "  debugger;"),
        make("markers/debugger", "major", 30, "debugger;"),
        first,
      ]);
    const findings = review();
    expect(findings.map((finding) => finding.line)).toEqual([12, 30, 40]);
    // The first keeps the plain fingerprint, so a single occurrence posted before is still known.
    expect(findings[0]?.fingerprint).toBe(first.fingerprint);
    expect(new Set(findings.map((finding) => finding.fingerprint)).size).toBe(3);
    expect(review().map((finding) => finding.fingerprint)).toEqual(
      findings.map((finding) => finding.fingerprint),
    );
    // Merging again (the AI pass's merge sorts the built-in findings once more) changes nothing.
    expect(sortAndDedupe(findings)).toEqual(findings);
  });
});
