import { describe, expect, it } from "vitest";
import { loadRuleFile, RULE_FILE_BYTES_MAX } from "./rule-config.ts";

const RULE = [
  "id: no-console-log",
  "language: TypeScript",
  "severity: warning",
  "message: Remove console.log ($$$ARGS).",
  "note: Use the logger.",
  "rule:",
  "  pattern: console.log($$$ARGS)",
].join("\n");

describe("loadRuleFile", () => {
  it("loads ast-grep's rule YAML: id, language, rule, message, note as the fix, severity mapped", () => {
    const { rules, invalid } = loadRuleFile(RULE, ".argus/rules/a.yml", "team");
    expect(invalid).toEqual([]);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({
      ruleId: "team/no-console-log",
      id: "no-console-log",
      path: ".argus/rules/a.yml",
      family: "team",
      language: "typescript",
      group: "js",
      languages: ["typescript", "tsx", "javascript"],
      severity: "minor",
      category: "hygiene",
      message: "Remove console.log ($$$ARGS).",
      fix: "Use the logger.",
      config: { rule: { pattern: "console.log($$$ARGS)" } },
    });
  });

  it("maps ast-grep's severities and lets metadata name ours, a category and a CWE id in any common form", () => {
    const file = [
      RULE.replace("severity: warning", "severity: error"),
      `${RULE.replace("no-console-log", "b").replace("severity: warning", "severity: hint")}\nmetadata:\n  severity: critical\n  category: security\n  cwe: "CWE-79: Improper Neutralization of Input"`,
      `${RULE.replace("no-console-log", "c").replace("severity: warning", "severity: info")}\nmetadata:\n  cwe: 89`,
      RULE.replace("no-console-log", "d").replace("severity: warning", "severity: off"),
    ].join("\n---\n");
    const { rules, invalid } = loadRuleFile(file, "r.yml", "team");
    expect(invalid).toEqual([]);
    // `severity: off` keeps a rule in the file without running it.
    expect(rules.map((rule) => [rule.id, rule.severity, rule.category, rule.cwe])).toEqual([
      ["no-console-log", "major", "hygiene", undefined],
      ["b", "critical", "security", "CWE-79"],
      ["c", "info", "hygiene", "CWE-89"],
    ]);
  });

  it("names a file that is not YAML, or too large, as one invalid entry", () => {
    expect(loadRuleFile("id: a\nrule: [unclosed", "a.yml", "team")).toEqual({
      rules: [],
      invalid: [{ path: "a.yml", error: expect.stringMatching(/^not valid YAML: /) }],
    });
    expect(loadRuleFile(`# ${"x".repeat(RULE_FILE_BYTES_MAX)}`, "big.yml", "team").invalid).toEqual([
      { path: "big.yml", error: `larger than ${RULE_FILE_BYTES_MAX} bytes` },
    ]);
  });

  it("refuses each bad rule by id with what is wrong, and keeps the file's good ones", () => {
    const file = [
      RULE,
      "id: unknown-key\nlanguage: TypeScript\nmessage: m\nrule:\n  pattern: x\nseverity: error\nwhen: always",
      "id: bad-language\nlanguage: Rust\nmessage: m\nrule:\n  pattern: x",
      "id: bad-kind\nlanguage: Python\nmessage: m\nrule:\n  kind: not_a_kind",
      "id: bad-regex\nlanguage: Go\nmessage: m\nrule:\n  regex: '('",
      "id: typo\nlanguage: TypeScript\nmessage: m\nrule:\n  patern: x",
      "id: no-message\nlanguage: TypeScript\nrule:\n  pattern: x",
      "id: stray-taint\nlanguage: TypeScript\nmessage: m\nrule:\n  pattern: f($A)\nmetadata:\n  taint:\n    sink: B",
      "id: bad-cwe\nlanguage: TypeScript\nmessage: m\nrule:\n  pattern: x\nmetadata:\n  cwe: injection",
      "id: stray-async\nlanguage: TypeScript\nmessage: m\nrule:\n  pattern: $F()\nmetadata:\n  async: G",
      RULE,
    ].join("\n---\n");
    const { rules, invalid } = loadRuleFile(file, "r.yml", "team");
    expect(rules.map((rule) => rule.id)).toEqual(["no-console-log"]);
    expect(invalid.map((entry) => [entry.id, entry.error])).toEqual([
      ["unknown-key", expect.stringContaining('Unrecognized key: "when"')],
      ["bad-language", expect.stringMatching(/^language: one of typescript/)],
      ["bad-kind", expect.stringContaining("rule` is not configured correctly")],
      ["bad-regex", expect.stringContaining("rule` is not configured correctly")],
      ["typo", expect.stringContaining("unknown field `patern`")],
      ["no-message", expect.stringMatching(/^message: /)],
      ["stray-taint", "metadata: $B is not a metavariable of the rule"],
      ["bad-cwe", "metadata.cwe: a CWE id such as CWE-89"],
      ["stray-async", "metadata: $G is not a metavariable of the rule"],
      ["no-console-log", "a rule with this id came before in the file"],
    ]);
  });

  it("runs a rule on the grammars of its family that compile it: a TSX node kind keeps it off plain .ts", () => {
    const file = "id: jsx\nlanguage: Tsx\nmessage: m\nrule:\n  kind: jsx_attribute\n";
    const [rule] = loadRuleFile(file, "r.yml", "team").rules;
    expect(rule?.languages).toEqual(["tsx", "javascript"]);
  });
});
