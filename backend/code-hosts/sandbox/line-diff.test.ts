import { describe, expect, it } from "vitest";
import { fromPullRequestFiles } from "../../review/pipeline/diff.ts";
import { filePatch, linesOf } from "./line-diff.ts";

const numbered = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);
const text = (lines: readonly string[]) => `${lines.join("\n")}\n`;

/** The patch read back the way the review engine reads GitHub's, as right-side line → text. */
function rightSide(patch: string) {
  const [file] = fromPullRequestFiles([
    { filename: "f.ts", status: "modified", additions: 0, deletions: 0, patch },
  ]);
  return new Map(
    (file?.hunks ?? []).flatMap((hunk) =>
      hunk.lines.filter((line) => line.newLine !== null).map((line) => [line.newLine, line] as const),
    ),
  );
}

describe("filePatch", () => {
  it("numbers every right-side line as it is in the new text, around changes far apart", () => {
    const before = numbered(40);
    const after = [...before];
    after.splice(4, 1, "changed 5");
    after.splice(30, 0, "inserted a", "inserted b");
    const result = filePatch(text(before), text(after));
    expect(result.patch.split("\n").filter((line) => line.startsWith("@@"))).toEqual([
      "@@ -2,7 +2,7 @@",
      "@@ -28,6 +28,8 @@",
    ]);
    expect(result).toMatchObject({ additions: 3, deletions: 1 });
    for (const [line, diffLine] of rightSide(result.patch)) {
      expect(diffLine.text, `line ${line}`).toBe(after[(line as number) - 1]);
    }
    const added = [...rightSide(result.patch).values()].filter((line) => line.kind === "add");
    expect(added.map((line) => [line.newLine, line.text])).toEqual([
      [5, "changed 5"],
      [31, "inserted a"],
      [32, "inserted b"],
    ]);
  });

  it("joins changes closer than twice the context into one hunk", () => {
    const before = numbered(20);
    const after = before.map((line, index) => (index === 5 || index === 10 ? `${line}!` : line));
    const headers = filePatch(text(before), text(after))
      .patch.split("\n")
      .filter((l) => l.startsWith("@@"));
    expect(headers).toEqual(["@@ -3,12 +3,12 @@"]);
  });

  it("writes an added file as one hunk from line 1 and a removed file as all deletions", () => {
    expect(filePatch(null, "a\nb\n")).toEqual({
      patch: "@@ -0,0 +1,2 @@\n+a\n+b",
      additions: 2,
      deletions: 0,
    });
    expect(filePatch("a\nb\n", null)).toEqual({
      patch: "@@ -1,2 +0,0 @@\n-a\n-b",
      additions: 0,
      deletions: 2,
    });
  });

  it("writes a one-line side without a count, as git does, and an insertion at the top", () => {
    expect(filePatch("a\n", "b\n").patch).toBe("@@ -1 +1 @@\n-a\n+b");
    expect(filePatch("x\n", "new\nx\n").patch).toBe("@@ -1 +1,2 @@\n+new\n x");
  });

  it("answers an empty patch for the same lines", () => {
    expect(filePatch("same\n", "same\n")).toEqual({ patch: "", additions: 0, deletions: 0 });
  });
});

describe("linesOf", () => {
  it("does not count the final newline as a line", () => {
    expect(linesOf("")).toEqual([]);
    expect(linesOf("a\n")).toEqual(["a"]);
    expect(linesOf("a\n\nb")).toEqual(["a", "", "b"]);
  });
});
