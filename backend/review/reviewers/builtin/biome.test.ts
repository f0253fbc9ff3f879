import { Workspace } from "@biomejs/wasm-nodejs";
import { describe, expect, it, vi } from "vitest";
import { addedFile, changedFile, hunk, runAnalyzer } from "../../../../tests/support/review-files.ts";
import { biomeAnalyzer } from "./biome.ts";

const CONTENT = [
  // Multi-byte characters before the findings: Biome's offsets count bytes, not characters.
  `const label = '${"é日本".repeat(20)}';`,
  "export function same(a: unknown, b: unknown) {",
  "  return a == b;",
  "}",
  "export function old(a: unknown) {",
  "  return a == 1;",
  "}",
  "console.log(label);",
].join("\n");

describe("biomeAnalyzer", () => {
  it("reports a Biome rule on an added line of a new file, at the right line", async () => {
    const { findings, notes } = await runAnalyzer(biomeAnalyzer, [
      addedFile("src/new.ts", CONTENT.split("\n")),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.line, finding.quote])).toEqual([
      ["biome/suspicious/noDoubleEquals", 3, "  return a == b;"],
      ["biome/suspicious/noDoubleEquals", 6, "  return a == 1;"],
    ]);
    expect(findings[0]?.message).toContain("type coercion");
    expect(notes).toEqual([]);
  });

  it("leaves ES5's var scoping alone: a var in a block, declared twice or used above a later declaration", async () => {
    const es5 = [
      "function parse(str) {",
      "  var index = str.indexOf(';');",
      "  while (index !== -1) {",
      "    var next = str.indexOf(';', index + 1);",
      "    var index = next;",
      "  }",
      "  let count = 1;",
      "  let count2 = count;",
      "  return index + count2;",
      "}",
      "module.exports = parse;",
    ];
    const { findings } = await runAnalyzer(biomeAnalyzer, [addedFile("lib/parse.js", es5)]);
    expect(
      findings.filter((finding) =>
        /noInnerDeclarations|noRedeclare|noInvalidUseBeforeDeclaration/.test(finding.ruleId),
      ),
    ).toEqual([]);
  });

  it("reports the same rules where they are bugs: a let redeclared, a const used before it is declared", async () => {
    const { findings } = await runAnalyzer(biomeAnalyzer, [
      addedFile("src/tdz.ts", [
        "export function f() {",
        "  const a = b + 1;",
        "  const b = 2;",
        "  return a;",
        "}",
      ]),
    ]);
    expect(findings.map((finding) => finding.ruleId)).toContain(
      "biome/correctness/noInvalidUseBeforeDeclaration",
    );
  });

  it("with the content at head, keeps only diagnostics on added lines", async () => {
    // Line 3 is added; line 6 has the same problem but is unchanged context.
    const file = changedFile(
      "src/a.ts",
      hunk(
        [" export function same(a: unknown, b: unknown) {", "-  return a === b;", "+  return a == b;", " }"],
        2,
      ),
      {
        content: CONTENT,
      },
    );
    const { findings } = await runAnalyzer(biomeAnalyzer, [file]);
    expect(findings.map((finding) => [finding.ruleId, finding.line])).toEqual([
      ["biome/suspicious/noDoubleEquals", 3],
    ]);
  });

  it("skips a modified file it only has hunks of, and says so", async () => {
    const file = changedFile("src/b.ts", hunk([" x", "+if (a == b) {}"], 10));
    const { findings, notes } = await runAnalyzer(biomeAnalyzer, [file]);
    expect(findings).toEqual([]);
    expect(notes).toEqual(["Biome did not lint 1 modified file(s) without their full content: src/b.ts."]);
  });

  it("leaves debugger statements to the markers rules and does not read other languages", async () => {
    const { findings } = await runAnalyzer(biomeAnalyzer, [
      addedFile("src/c.ts", ["export function f() {", "  debugger;", "}"]),
      addedFile("src/d.py", ["if a == b: pass"]),
    ]);
    expect(findings).toEqual([]);
  });

  it("answers a file Biome cannot lint with a note and still lints the others", async () => {
    const failOnce = vi.spyOn(Workspace.prototype, "pullDiagnostics").mockImplementationOnce(() => {
      throw new Error("unreachable executed");
    });
    try {
      const { findings, notes } = await runAnalyzer(biomeAnalyzer, [
        addedFile("src/broken.ts", ["a == b;"]),
        addedFile("src/new.ts", CONTENT.split("\n")),
      ]);
      expect(findings.map((finding) => [finding.path, finding.line])).toEqual([
        ["src/new.ts", 3],
        ["src/new.ts", 6],
      ]);
      expect(notes).toEqual(["Biome could not lint src/broken.ts: unreachable executed"]);
    } finally {
      failOnce.mockRestore();
    }
  });

  it("reuses its workspace: a second review gives the same findings", async () => {
    const file = addedFile("src/new.ts", CONTENT.split("\n"));
    const first = await runAnalyzer(biomeAnalyzer, [file]);
    const second = await runAnalyzer(biomeAnalyzer, [file]);
    expect(second.findings).toEqual(first.findings);
  });
});
