import { describe, expect, it } from "vitest";
import { applyPatch, caseProblems, LANGUAGES, loadCorpus } from "./corpus.ts";

const PATCH = `diff --git a/src/a.ts b/src/a.ts
--- a/src/a.ts
+++ b/src/a.ts
@@ -1,3 +1,3 @@
 const a = 1;
-const b = 2;
+const b = 3;
 export { a, b };
`;

describe("applyPatch", () => {
  it("gives the head and the file in GitHub's shape", () => {
    const base = new Map([["src/a.ts", "const a = 1;\nconst b = 2;\nexport { a, b };\n"]]);
    const { head, files } = applyPatch(base, PATCH);
    expect(head.get("src/a.ts")).toBe("const a = 1;\nconst b = 3;\nexport { a, b };\n");
    expect(files).toEqual([
      {
        filename: "src/a.ts",
        status: "modified",
        additions: 1,
        deletions: 1,
        patch: "@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n export { a, b };",
      },
    ]);
  });

  it("refuses a patch whose lines are not in the base", () => {
    const base = new Map([["src/a.ts", "const a = 1;\nconst b = 5;\nexport { a, b };\n"]]);
    expect(() => applyPatch(base, PATCH)).toThrow(/base line 2/);
  });
});

describe("the corpus", async () => {
  const corpus = await loadCorpus();

  it("applies every patch and finds every planted defect on a line the diff shows", () => {
    expect(corpus.flatMap(caseProblems)).toEqual([]);
  });

  it("holds at least 40 cases over three languages, half with planted defects", () => {
    const count = (language: string) => corpus.filter((each) => each.language === language).length;
    const [typescript = 0, python = 0, go = 0] = LANGUAGES.map(count);
    expect(typescript).toBeGreaterThanOrEqual(14);
    expect(python).toBeGreaterThanOrEqual(13);
    expect(go).toBeGreaterThanOrEqual(13);
    const defects = corpus.filter((each) => each.kind === "defect").length;
    expect(defects).toBe(corpus.length / 2);
  });
});
