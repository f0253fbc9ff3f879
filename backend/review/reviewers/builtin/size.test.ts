import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk, runAnalyzer } from "../../../../tests/support/review-files.ts";
import { looksMinified, sizeAnalyzer } from "./size.ts";

const MINIFIED = `!function(e,t){"use strict";${"var n=e.document,r=Object.getPrototypeOf,i=[].slice;".repeat(8)}}(window);`;

describe("looksMinified", () => {
  it("tells minified code and inlined data from long hand-written lines", () => {
    expect(looksMinified(MINIFIED)).toBe(true);
    expect(looksMinified(`const logo = "data:image/png;base64,${"iVBORw0KGgo".repeat(30)}";`)).toBe(true);
    expect(looksMinified("const message = 'a long sentence with words and spaces'; ".repeat(5))).toBe(false);
    expect(looksMinified("x".repeat(150))).toBe(false);
  });
});

describe("sizeAnalyzer", () => {
  it("reports the first minified added line of a file, and not a removed one", async () => {
    const { findings } = await runAnalyzer(sizeAnalyzer, [
      addedFile("public/vendor-bundle.js", ["// bundle", MINIFIED, MINIFIED.replace("window", "self")]),
      changedFile("src/a.js", hunk([`-${MINIFIED}`, "+import './a.css';"])),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.path, finding.line])).toEqual([
      ["size/minified-blob", "public/vendor-bundle.js", 2],
    ]);
  });

  it("reports a pull request over the line limit as a whole, once", async () => {
    const lines = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => `${prefix}${index}`);
    const files = [addedFile("a.txt", lines(30, "a")), changedFile("b.txt", hunk(lines(25, "-b"), 1))];
    const over = await runAnalyzer(sizeAnalyzer, files, 50);
    expect(over.findings.map((finding) => [finding.ruleId, finding.path, finding.line])).toEqual([
      ["size/oversized-pull-request", null, null],
    ]);
    expect(over.findings[0]?.message).toContain("55 lines");
    expect((await runAnalyzer(sizeAnalyzer, files, 55)).findings).toEqual([]);
  });
});
