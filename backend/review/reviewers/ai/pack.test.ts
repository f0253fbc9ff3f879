import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk } from "../../../../tests/support/review-files.ts";
import { numberedFile, packDiff, tokensOf } from "./pack.ts";

describe("the numbered diff", () => {
  it("numbers right-side lines with their head line numbers and lists removed lines without numbers", () => {
    const file = changedFile(
      "src/cart.ts",
      hunk([" const total = 0;", "-let count = 1;", "+let count = 2;", " export { total };"], 10, 10),
    );
    expect(numberedFile(file)).toBe(
      [
        "## File: src/cart.ts (modified)",
        "",
        "@@ -10,3 +10,3 @@",
        "__new hunk__",
        "10  const total = 0;",
        "11 +let count = 2;",
        "12  export { total };",
        "__old hunk__",
        "-let count = 1;",
      ].join("\n"),
    );
  });

  it("leaves the old hunk out when nothing was removed, and names a rename", () => {
    const file = { ...addedFile("b.ts", ["x();"]), previousPath: "a.ts", status: "renamed" as const };
    expect(numberedFile(file)).toBe(
      "## File: b.ts (renamed, renamed from a.ts)\n\n@@ -0,0 +1,1 @@\n__new hunk__\n1 +x();",
    );
  });
});

describe("packing", () => {
  const small = addedFile("src/small.ts", ["a();"]);
  const big = addedFile(
    "src/big.ts",
    Array.from({ length: 200 }, (_, index) => `export const value${index} = compute(${index}, "text");`),
  );
  const middle = addedFile("src/middle.ts", ["one();", "two();", "three();"]);

  it("packs whole files, most changed first, while they fit", () => {
    const packed = packDiff([small, middle, big], 100_000);
    expect(packed.included).toEqual(["src/big.ts", "src/middle.ts", "src/small.ts"]);
    expect(packed.leftOut).toEqual([]);
    // Counted file by file: tokens do not add up exactly across a join, the sum stays close.
    expect(Math.abs(packed.tokens - tokensOf(packed.text))).toBeLessThan(10);
  });

  it("leaves out whole files that do not fit, naming them, and still packs smaller ones after", () => {
    const budget = tokensOf(numberedFile(middle)) + tokensOf(numberedFile(small)) + 10;
    const packed = packDiff([small, middle, big], budget);
    expect(packed.leftOut).toEqual(["src/big.ts"]);
    expect(packed.included).toEqual(["src/middle.ts", "src/small.ts"]);
    expect(packed.text).not.toContain("value0");
    expect(packed.tokens).toBeLessThanOrEqual(budget);
  });

  it("packs nothing into no budget", () => {
    expect(packDiff([small], 0)).toMatchObject({ included: [], leftOut: ["src/small.ts"], text: "" });
  });
});
