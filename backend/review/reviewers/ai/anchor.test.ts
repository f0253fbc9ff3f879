import { describe, expect, it } from "vitest";
import { changedFile, hunk } from "../../../../tests/support/review-files.ts";
import { RightSideIndex } from "../../pipeline/diff.ts";
import { fingerprint } from "../../pipeline/findings.ts";
import { AI_RULE_ID, anchorFinding, pathsToConfirm } from "./anchor.ts";
import type { ModelFinding } from "./model-provider.ts";

const file = changedFile(
  "src/db.ts",
  hunk(["+const conn = open();", "+  query(conn,   sql);", " return 1;"], 5, 5),
);
const index = new RightSideIndex([file]);
const CONTENT = [
  "import x;",
  "",
  "const a = 1;",
  "close(conn);",
  "const conn = open();",
  "query(conn, sql);",
  "return 1;",
  "const outside = 2;",
].join("\n");

const modelFinding = (overrides: Partial<ModelFinding>): ModelFinding => ({
  path: "src/db.ts",
  line: 5,
  quote: "const conn = open();",
  severity: "major",
  title: "Connection leak",
  message: "The connection is never closed.",
  ...overrides,
});

describe("the anchor check", () => {
  it("anchors a finding whose quote is the named line, white space aside, with a fingerprint of path and line text", () => {
    const result = anchorFinding(modelFinding({ line: 6, quote: "query(conn, sql);" }), index, new Map());
    expect(result.outcome).toBe("anchored");
    expect(result.finding).toMatchObject({
      ruleId: AI_RULE_ID,
      source: "ai",
      severity: "major",
      path: "src/db.ts",
      line: 6,
      quote: "  query(conn,   sql);",
      message: "Connection leak: The connection is never closed.",
      fingerprint: fingerprint(AI_RULE_ID, "src/db.ts", "query(conn, sql);"),
    });
  });

  it("moves a finding whose quote is elsewhere in the file to the summary, without a line", () => {
    const contents = new Map([["src/db.ts", CONTENT]]);
    const result = anchorFinding(modelFinding({ line: 7, quote: "close(conn);" }), index, contents);
    expect(result).toMatchObject({ outcome: "moved", reason: "quote is at line 4" });
    expect(result.finding).toMatchObject({
      line: null,
      quote: null,
      message: expect.stringMatching(/^Line 4: /),
    });
  });

  it("moves a finding on a line outside the diff whose quote is right", () => {
    const contents = new Map([["src/db.ts", CONTENT]]);
    const result = anchorFinding(modelFinding({ line: 8, quote: "const outside = 2;" }), index, contents);
    expect(result).toMatchObject({ outcome: "moved", reason: "line outside the diff" });
  });

  it("drops a finding whose quote is nowhere, or that quotes nothing", () => {
    const contents = new Map([["src/db.ts", CONTENT]]);
    expect(anchorFinding(modelFinding({ quote: "eval(input);" }), index, contents)).toMatchObject({
      outcome: "dropped",
      reason: "quote not in the file",
    });
    expect(anchorFinding(modelFinding({ quote: "  " }), index, contents).outcome).toBe("dropped");
    expect(anchorFinding(modelFinding({ quote: "eval(input);" }), index, new Map()).outcome).toBe("dropped");
  });

  it("asks for the text at head only of files with a finding the diff does not confirm", () => {
    expect(
      pathsToConfirm(
        [
          modelFinding({}),
          modelFinding({ path: "src/other.ts", line: 1, quote: "x" }),
          modelFinding({ line: 9 }),
        ],
        index,
      ),
    ).toEqual(["src/other.ts", "src/db.ts"]);
  });
});
