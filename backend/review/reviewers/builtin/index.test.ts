import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { findingSchema } from "../../../../shared/contract/reviews.ts";
import { addedFile, changedFile, hunk } from "../../../../tests/support/review-files.ts";
import { fromUnifiedDiff } from "../../pipeline/diff.ts";
import type { Analyzer } from "./analyzer.ts";
import { reviewBuiltIn } from "./index.ts";
import { markersAnalyzer } from "./markers.ts";

const DIFF = `diff --git a/src/app.ts b/src/app.ts
--- a/src/app.ts
+++ b/src/app.ts
@@ -1,3 +1,4 @@
 export function run() {
-  debugger;
+  start();
+  debugger;
 }
diff --git a/yarn.lock b/yarn.lock
--- a/yarn.lock
+++ b/yarn.lock
@@ -1 +1 @@
-a@1
+a@2
diff --git a/dist/app.js b/dist/app.js
new file mode 100644
--- /dev/null
+++ b/dist/app.js
@@ -0,0 +1 @@
+debugger;
`;

describe("reviewBuiltIn", () => {
  it("filters, runs every analyzer on added lines and answers valid findings with the skipped files", async () => {
    const review = await reviewBuiltIn(fromUnifiedDiff(DIFF));
    expect(review.findings.map((finding) => [finding.ruleId, finding.path, finding.line])).toEqual([
      ["markers/debugger", "src/app.ts", 3],
      ["hygiene/lockfile-without-manifest", "yarn.lock", null],
    ]);
    for (const finding of review.findings) expect(v.safeParse(findingSchema, finding).success).toBe(true);
    expect(review.skipped).toEqual([
      { path: "yarn.lock", reason: "lockfile" },
      { path: "dist/app.js", reason: "generated" },
    ]);
    expect(review.failures).toEqual([]);
    expect(review.notes).toEqual([
      "Biome did not lint 1 modified file(s) without their full content: src/app.ts.",
    ]);
  });

  it("keeps the other analyzers' findings when one throws, and records the failure", async () => {
    const broken: Analyzer = {
      name: "broken",
      run() {
        throw new Error("parser crashed");
      },
    };
    const review = await reviewBuiltIn([addedFile("src/a.ts", ["debugger;"])], {
      analyzers: [broken, markersAnalyzer],
    });
    expect(review.findings.map((finding) => finding.ruleId)).toEqual(["markers/debugger"]);
    expect(review.failures).toEqual([{ analyzer: "broken", error: "parser crashed" }]);
  });

  it("comments on each of two identical lines, and answers the same fingerprints after an unrelated push shifts lines", async () => {
    const first = await reviewBuiltIn([
      changedFile("src/a.ts", hunk([" a", "+debugger;", "+  debugger;"], 10)),
    ]);
    expect(first.findings.map((finding) => finding.line)).toEqual([11, 12]);
    expect(new Set(first.findings.map((finding) => finding.fingerprint)).size).toBe(2);
    const later = await reviewBuiltIn([
      changedFile("src/a.ts", hunk([" a", "+debugger;", "+  debugger;"], 25)),
    ]);
    expect(later.findings.map((finding) => finding.fingerprint)).toEqual(
      first.findings.map((finding) => finding.fingerprint),
    );
  });
});
