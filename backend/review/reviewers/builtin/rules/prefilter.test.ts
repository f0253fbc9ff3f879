import { describe, expect, it } from "vitest";
import { prefilterOf } from "./prefilter.ts";

describe("prefilterOf", () => {
  it("needs a pattern's telling identifier, whole and in its case", () => {
    const test = prefilterOf({ rule: { pattern: "yaml.load($DATA)" } });
    expect(test("import yaml\nyaml.load(x)")).toBe(true);
    expect(test("import json\njson.loads(x)")).toBe(false);
    expect(test("myyamlfile = 1")).toBe(false);
  });

  it("needs one of a regex's alternatives anywhere, in any case with (?i)", () => {
    const test = prefilterOf({
      rule: { kind: "call_expression", has: { field: "function", regex: "\\.(query|execute)$" } },
    });
    expect(test("db.execute(sql)")).toBe(true);
    expect(test("db.get(id)")).toBe(false);
    const anyCase = prefilterOf({ rule: { kind: "statement", regex: "(?i)passw|pwd" } });
    expect(anyCase("const userPassword = 1")).toBe(true);
    expect(anyCase("const name = 1")).toBe(false);
  });

  it("takes a metavariable's constraint when a pattern has no word of its own, and any branch of `any`", () => {
    const test = prefilterOf({
      rule: { any: [{ pattern: "$FS.$M($P)" }, { pattern: "createReadStream($P)" }] },
      constraints: { M: { regex: "^(readFile|writeFile)$" } },
    });
    expect(test("fs.readFile(p)")).toBe(true);
    expect(test("createReadStream(p)")).toBe(true);
    expect(test("fs.stat(p)")).toBe(false);
  });

  it("runs a rule it cannot read on every file", () => {
    for (const rule of [{ kind: "go_statement" }, { pattern: "$A[$B] = $C" }, { regex: "[a-z]+\\d" }]) {
      expect(prefilterOf({ rule })("anything")).toBe(true);
    }
  });
});
