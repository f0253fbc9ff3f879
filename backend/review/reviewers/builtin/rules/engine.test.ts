import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk } from "../../../../../tests/support/review-files.ts";
import { runRules } from "./engine.ts";
import { builtInRules } from "./families.ts";
import { type LoadedRule, loadRuleFile } from "./rule-config.ts";

const teamRule = (yaml: string): LoadedRule => {
  const { rules, invalid } = loadRuleFile(yaml, ".argus/rules/r.yml", "team");
  if (!rules[0]) throw new Error(JSON.stringify(invalid));
  return rules[0];
};

const NO_CONSOLE = teamRule(
  [
    "id: no-console",
    "language: JavaScript",
    "severity: warning",
    "message: Remove console.log($$$ARGS) — found $ARG.",
    "note: Use the logger.",
    "rule:",
    "  any:",
    "    - pattern: console.log($ARG)",
  ].join("\n"),
);

const SQL = builtInRules().filter((rule) => rule.family === "sql-injection");

describe("runRules", () => {
  it("reports a match only on added lines, with the rule's message ($VAR filled in), category and fix", () => {
    const file = changedFile("src/a.js", hunk([" console.log(old);", "+console.log(fresh);"], 1, 1), {
      content: "console.log(old);\nconsole.log(fresh);\n",
    });
    const run = runRules([file], [NO_CONSOLE]);
    expect(run.failures).toEqual([]);
    expect(run.findings).toHaveLength(1);
    expect(run.findings[0]).toMatchObject({
      ruleId: "team/no-console",
      line: 2,
      quote: "console.log(fresh);",
      severity: "minor",
      category: "hygiene",
      message: "Remove console.log($$$ARGS) — found fresh.",
      fix: "Use the logger.",
      source: "builtin",
    });
  });

  it("records a rule that throws on a file and runs the others: the review loses only that rule there", () => {
    const broken: LoadedRule = {
      ...NO_CONSOLE,
      ruleId: "team/broken",
      config: { rule: { kind: "no_such_kind" } },
    };
    const run = runRules([addedFile("src/a.js", ["console.log(x);"])], [broken, NO_CONSOLE]);
    expect(run.findings.map((finding) => finding.ruleId)).toEqual(["team/no-console"]);
    expect(run.failures).toEqual([
      { ruleId: "team/broken", path: "src/a.js", error: expect.stringContaining("no_such_kind") },
    ]);
  });

  it("keeps a rule to its files and off its ignored paths", () => {
    const scoped = { ...NO_CONSOLE, files: ["src/**"], ignores: ["**/*.test.js"] };
    const files = ["src/a.js", "src/a.test.js", "scripts/b.js"].map((path) =>
      addedFile(path, ["console.log(x);"]),
    );
    expect(runRules(files, [scoped]).findings.map((finding) => finding.path)).toEqual(["src/a.js"]);
  });

  it("runs a JavaScript rule on TypeScript and TSX too, and a Python rule on Python only", () => {
    const files = ["a.ts", "b.tsx", "c.mjs", "d.py"].map((path) => addedFile(path, ["console.log(x);"]));
    expect(runRules(files, [NO_CONSOLE]).findings.map((finding) => finding.path)).toEqual([
      "a.ts",
      "b.tsx",
      "c.mjs",
    ]);
  });

  it("reports a sink that was already there on the added line that now feeds it request data", () => {
    const content = [
      "app.get('/x', (req, res) => {",
      "  const sort = req.query.sort;",
      '  db.query("SELECT * FROM t ORDER BY " + sort);',
      "});",
    ].join("\n");
    const patch = hunk(
      [
        " app.get('/x', (req, res) => {",
        "-  const sort = 'id';",
        "+  const sort = req.query.sort;",
        '   db.query("SELECT * FROM t ORDER BY " + sort);',
      ],
      1,
      1,
    );
    const run = runRules([changedFile("src/x.js", patch, { content })], SQL);
    expect(run.findings.map((finding) => [finding.ruleId, finding.line])).toEqual([
      ["sql-injection/js-raw-query", 2],
    ]);
  });

  it("parses a modified file known only by its hunks at their line numbers, and says so", () => {
    const patch = hunk(
      [
        " def report(cursor, region):",
        "+    cursor.execute(\"SELECT * FROM sales WHERE region = '%s'\" % region)",
      ],
      40,
      40,
    );
    const run = runRules([changedFile("app/report.py", patch)], SQL);
    expect(run.fromHunks).toEqual(["app/report.py"]);
    expect(run.findings.map((finding) => [finding.ruleId, finding.line])).toEqual([
      ["sql-injection/py-raw-query", 41],
    ]);
  });

  it("gives one finding per family and line, however many of its rules or nested matches fire", () => {
    const file = addedFile("app/a.py", [
      "def f(db, name):",
      "    db.session.execute(text(\"SELECT * FROM t WHERE n = '%s'\" % name))",
    ]);
    expect(runRules([file], SQL).findings).toHaveLength(1);
  });
});
