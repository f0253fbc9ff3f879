import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  applyPatch,
  CORPUS_DIR,
  caseProblems,
  LANGUAGES,
  loadCorpus,
  readCaseDescription,
  setOf,
} from "./corpus.ts";
import { headFile } from "./real-world.ts";

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

describe("the written corpus", async () => {
  const corpus = (await loadCorpus({ sources: "" })).cases.filter((each) => each.set === "written");

  it("applies every patch and finds every planted defect on a line the diff shows", () => {
    expect(corpus.flatMap(caseProblems)).toEqual([]);
  });

  it("holds at least 40 cases over three languages, half with planted defects", () => {
    const count = (language: string) => corpus.filter((each) => each.language === language).length;
    const [typescript = 0, , python = 0, go = 0] = LANGUAGES.map(count);
    expect(typescript).toBeGreaterThanOrEqual(14);
    expect(python).toBeGreaterThanOrEqual(13);
    expect(go).toBeGreaterThanOrEqual(13);
    const defects = corpus.filter((each) => each.kind === "defect").length;
    expect(defects).toBe(corpus.length / 2);
  });
});

describe("the real-world corpus", async () => {
  const ids = (await readdir(CORPUS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && setOf(entry.name) === "real-world")
    .map((entry) => entry.name);
  const described = await Promise.all(
    ids.map(async (id) => ({ id, ...(await readCaseDescription(path.join(CORPUS_DIR, id))) })),
  );

  it("holds at least 30 cases: 12 npm, 8 PyPI, 6 Go; 8 or more clean; defects with a CWE", () => {
    expect(described.length).toBeGreaterThanOrEqual(30);
    const from = (registry: string) => described.filter((each) => each.source?.package.startsWith(registry));
    expect(from("npm ").length).toBeGreaterThanOrEqual(12);
    expect(from("PyPI ").length).toBeGreaterThanOrEqual(8);
    expect(from("Go ").length).toBeGreaterThanOrEqual(6);
    expect(described.filter((each) => each.kind === "clean").length).toBeGreaterThanOrEqual(8);
    const defects = described.flatMap((each) => (each.kind === "defect" ? each.defects : []));
    expect(defects.filter((defect) => defect.category !== "security").length).toBeGreaterThanOrEqual(4);
    expect(defects.filter((defect) => !defect.cwe && defect.category === "security")).toEqual([]);
  });

  it("gives every case its provenance, and keeps no code: defect lines are named by hash", async () => {
    for (const each of described) {
      expect(each.source, each.id).toMatchObject({
        repository: expect.stringMatching(/\//),
        license: expect.any(String),
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        paths: expect.any(Array),
        chosen: expect.any(String),
      });
      expect(each.source?.change, each.id).toBe(each.kind === "clean" ? "commit" : "reversed-fix");
      if (each.kind === "defect") {
        expect(each.source?.advisories.length || each.source?.reference, each.id).toBeTruthy();
        for (const defect of each.defects) {
          expect(defect.text, each.id).toBeUndefined();
          expect(defect.text_sha256, each.id).toMatch(/^[0-9a-f]{64}$/);
        }
      }
      expect(await readdir(path.join(CORPUS_DIR, each.id))).toEqual(["case.yaml"]);
    }
  });

  // The code is read from clones of the source repositories (QUALITY_SOURCES, real-world.ts);
  // without them there is nothing to apply.
  const sources = process.env.QUALITY_SOURCES;
  it.skipIf(!sources)(
    "applies every patch to its base, giving the head commit's files, with each defect on an added line",
    async () => {
      const { cases, unavailable } = await loadCorpus({ only: ids, sources });
      expect(unavailable).toEqual([]);
      expect(cases.flatMap(caseProblems)).toEqual([]);
      for (const { id, source, head } of cases) {
        if (!source || !sources) throw new Error(`${id}: no source`);
        for (const file of source.paths)
          expect(head.get(file) ?? null, `${id} ${file}`).toBe(headFile(source, sources, file));
      }
    },
    60_000,
  );
});
