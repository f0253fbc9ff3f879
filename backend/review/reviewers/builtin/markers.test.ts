import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk, runAnalyzer } from "../../../../tests/support/review-files.ts";
import { markersAnalyzer } from "./markers.ts";

const rulesOf = async (...files: Parameters<typeof runAnalyzer>[1]) =>
  (await runAnalyzer(markersAnalyzer, files)).findings.map((finding) => [
    finding.ruleId,
    finding.path,
    finding.line,
  ]);

describe("markersAnalyzer", () => {
  it("reports a debugger statement on an added line, not on removed or context lines", async () => {
    const file = changedFile(
      "src/a.ts",
      hunk(
        [
          "-  debugger;",
          "   debugger; // already there",
          "+  if (x) { debugger; }",
          "+  // debugger in a comment",
        ],
        5,
      ),
    );
    expect(await rulesOf(file)).toEqual([["markers/debugger", "src/a.ts", 6]]);
  });

  it("reports .only( in test files only", async () => {
    expect(
      await rulesOf(
        addedFile("src/a.test.ts", ["describe.only('a', () => {", "  it('b', () => {});", "});"]),
        addedFile("tests/e2e/login.ts", ["test.only('signs in', async () => {});"]),
        addedFile("src/query.ts", ["const first = rows.only(0);"]),
      ),
    ).toEqual([
      ["markers/focused-test", "src/a.test.ts", 1],
      ["markers/focused-test", "tests/e2e/login.ts", 1],
    ]);
  });

  it("reports a newly added @ts-ignore but not one already in the file", async () => {
    const file = changedFile("src/b.ts", hunk([" // @ts-ignore", " foo();", "+// @ts-ignore", "+bar();"], 1));
    expect(await rulesOf(file)).toEqual([["markers/ts-ignore", "src/b.ts", 3]]);
  });

  it("reports new lint suppressions in any language", async () => {
    expect(
      await rulesOf(
        addedFile("src/c.ts", ["// eslint-disable-next-line no-console", "// biome-ignore lint/x: reason"]),
        addedFile("tool.py", ["import os  # noqa: F401"]),
        addedFile("src/d.ts", ["// a comment about linting in general"]),
      ),
    ).toEqual([
      ["markers/lint-disable", "src/c.ts", 1],
      ["markers/lint-disable", "src/c.ts", 2],
      ["markers/lint-disable", "tool.py", 1],
    ]);
  });

  it("reports a committed conflict once, at its opening marker, and not a Markdown heading underline", async () => {
    const conflict = ["<<<<<<< HEAD", "const a = 1;", "=======", "const a = 2;", ">>>>>>> feature"];
    const { findings } = await runAnalyzer(markersAnalyzer, [
      addedFile("src/e.ts", conflict),
      addedFile("README.md", ["Title", "======="]),
    ]);
    expect(findings).toMatchObject([
      { ruleId: "markers/conflict", path: "src/e.ts", line: 1, quote: "<<<<<<< HEAD" },
    ]);
    expect(findings[0]?.message).toContain("(lines 1–5)");
  });

  it("reports each conflict of a file, a diff3 base section included, and stray or unclosed markers", async () => {
    const twoConflicts = [
      "<<<<<<< ours",
      "a",
      "||||||| base",
      "b",
      "=======",
      "c",
      ">>>>>>> theirs",
      "ok",
      "<<<<<<< HEAD",
      "d",
      "=======",
      "e",
      ">>>>>>> other",
    ];
    expect(await rulesOf(addedFile("src/two.ts", twoConflicts))).toEqual([
      ["markers/conflict", "src/two.ts", 1],
      ["markers/conflict", "src/two.ts", 9],
    ]);
    // Half a conflict (its opening side resolved, the rest left in) still gets a finding per marker.
    const leftovers = ["x", "=======", "y", ">>>>>>> feature", "<<<<<<< HEAD", "z"];
    const { findings } = await runAnalyzer(markersAnalyzer, [addedFile("src/half.ts", leftovers)]);
    expect(findings.map((finding) => [finding.line, finding.quote])).toEqual([
      [2, "======="],
      [4, ">>>>>>> feature"],
      [5, "<<<<<<< HEAD"],
    ]);
    expect(findings.every((finding) => finding.message.startsWith("Merge conflict marker:"))).toBe(true);
  });
});
