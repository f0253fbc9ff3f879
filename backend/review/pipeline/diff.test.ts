import { describe, expect, it } from "vitest";
import { addedLines, fromPullRequestFiles, fromUnifiedDiff, RightSideIndex } from "./diff.ts";

const TWO_HUNKS = [
  "@@ -1,4 +1,5 @@",
  " import a from 'a';",
  "-const x = 1;",
  "+const x = 2;",
  "+const y = 3;",
  " ",
  " export { x };",
  "@@ -20,3 +21,4 @@ function later() {",
  " first",
  "+inserted",
  " second",
  " third",
].join("\n");

describe("fromPullRequestFiles", () => {
  it("numbers the right side of every hunk from its own start", () => {
    const [file] = fromPullRequestFiles([
      { filename: "src/x.ts", status: "modified", additions: 3, deletions: 1, patch: TWO_HUNKS },
    ]);
    expect(file?.hunks).toHaveLength(2);
    expect(file?.hunks[0]?.lines.map((line) => [line.kind, line.oldLine, line.newLine])).toEqual([
      ["context", 1, 1],
      ["del", 2, null],
      ["add", null, 2],
      ["add", null, 3],
      ["context", 3, 4],
      ["context", 4, 5],
    ]);
    expect(file && addedLines(file)).toEqual([
      { line: 2, text: "const x = 2;" },
      { line: 3, text: "const y = 3;" },
      { line: 22, text: "inserted" },
    ]);
    expect(file?.hunks[1]?.lines.at(-1)).toEqual({
      kind: "context",
      text: "third",
      oldLine: 22,
      newLine: 24,
    });
  });

  it("keeps the previous path of a renamed file and reads copied files as modified", () => {
    const files = fromPullRequestFiles([
      {
        filename: "new/name.ts",
        previous_filename: "old/name.ts",
        status: "renamed",
        additions: 0,
        deletions: 0,
      },
      { filename: "copy.ts", status: "copied", additions: 1, deletions: 0, patch: "@@ -0,0 +1 @@\n+x" },
    ]);
    expect(files[0]).toMatchObject({
      path: "new/name.ts",
      previousPath: "old/name.ts",
      status: "renamed",
      hunks: [],
    });
    expect(files[1]?.status).toBe("modified");
  });

  it("does not count '\\ No newline at end of file' as a line, on either side", () => {
    const patch = [
      "@@ -1,2 +1,2 @@",
      " a",
      "-b",
      "\\ No newline at end of file",
      "+c",
      "\\ No newline at end of file",
    ].join("\n");
    const [file] = fromPullRequestFiles([
      { filename: "f.txt", status: "modified", additions: 1, deletions: 1, patch },
    ]);
    expect(
      file?.hunks[0]?.lines.map((line) => `${line.kind}:${line.text}:${line.oldLine}:${line.newLine}`),
    ).toEqual(["context:a:1:1", "del:b:2:null", "add:c:null:2"]);
  });

  it("strips carriage returns of CRLF files from the line text", () => {
    const [file] = fromPullRequestFiles([
      {
        filename: "w.ts",
        status: "added",
        additions: 1,
        deletions: 0,
        patch: "@@ -0,0 +1 @@\n+let a = 1;\r",
      },
    ]);
    expect(file && addedLines(file)).toEqual([{ line: 1, text: "let a = 1;" }]);
  });
});

const UNIFIED = `diff --git a/src/old.ts b/src/new.ts
similarity index 90%
rename from src/old.ts
rename to src/new.ts
index 1111111..2222222 100644
--- a/src/old.ts
+++ b/src/new.ts
@@ -3,2 +3,3 @@ const a = 1;
 b
+c
 d
diff --git a/gone.ts b/gone.ts
deleted file mode 100644
index 3333333..0000000
--- a/gone.ts
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..4444444
Binary files /dev/null and b/logo.png differ
diff --git a/n.ts b/n.ts
new file mode 100644
--- /dev/null
+++ b/n.ts
@@ -0,0 +1,2 @@
+one
+two
\\ No newline at end of file
`;

describe("fromUnifiedDiff", () => {
  const files = fromUnifiedDiff(UNIFIED);

  it("reads renamed, deleted, binary and new files with their statuses", () => {
    expect(files.map((file) => [file.path, file.status, file.previousPath])).toEqual([
      ["src/new.ts", "renamed", "src/old.ts"],
      ["gone.ts", "removed", undefined],
      ["logo.png", "added", undefined],
      ["n.ts", "added", undefined],
    ]);
    expect(files[2]?.hunks).toEqual([]);
  });

  it("numbers the lines like the per-file patches, without the no-newline marker", () => {
    expect(files[0] && addedLines(files[0])).toEqual([{ line: 4, text: "c" }]);
    expect(files[1]?.hunks[0]?.lines.every((line) => line.kind === "del" && line.newLine === null)).toBe(
      true,
    );
    expect(files[3] && addedLines(files[3])).toEqual([
      { line: 1, text: "one" },
      { line: 2, text: "two" },
    ]);
    expect(files[3]?.patchBytes).toBe("+one\n+two\n".length);
  });
});

describe("RightSideIndex", () => {
  const index = new RightSideIndex(
    fromPullRequestFiles([
      { filename: "src/x.ts", status: "modified", additions: 3, deletions: 1, patch: TWO_HUNKS },
    ]),
  );

  it("answers whether a right-side line is inside the diff: added and context lines are, others not", () => {
    expect(index.has("src/x.ts", 2)).toBe(true);
    expect(index.has("src/x.ts", 5)).toBe(true);
    expect(index.has("src/x.ts", 24)).toBe(true);
    expect(index.has("src/x.ts", 6)).toBe(false);
    expect(index.has("src/x.ts", 25)).toBe(false);
    expect(index.has("src/other.ts", 2)).toBe(false);
  });

  it("answers the text of a right-side line, never the removed line of the same number", () => {
    expect(index.text("src/x.ts", 2)).toBe("const x = 2;");
    expect(index.text("src/x.ts", 22)).toBe("inserted");
    expect(index.text("src/x.ts", 10)).toBeUndefined();
  });
});
