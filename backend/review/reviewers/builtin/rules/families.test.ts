/**
 * Every built-in family against its fixtures (backend/review/reviewers/builtin/rules/fixtures/<family>/): each fixture
 * is reviewed as a new file by all built-in rules, and the findings must be exactly the lines
 * annotated as semgrep's tests do it, a comment on the line above: `ruleid: <family>/<id>` where a
 * rule must fire, `ok: <family>/<id>` where a look-alike must not (any line without `ruleid` must
 * stay silent anyway, for every rule). The annotations, and lines ending in `(unchanged)` (in a
 * comment), are context the pull request did not touch, so a fixture can show what a change around
 * existing code does.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { settingCategory } from "../../../../../shared/settings-catalogue.ts";
import { changedFile, hunk } from "../../../../../tests/support/review-files.ts";
import { runRules } from "./engine.ts";
import { builtInFamilies, builtInRules, familiesOff, familySettingKey } from "./families.ts";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const ANNOTATION = /^\s*(?:\/\/|#|\{?\/\*)\s*(ruleid|ok):\s*(.+?)\s*(?:\*\/\}?)?$/;

function expectedOf(lines: readonly string[]) {
  const expected: string[] = [];
  const silent: string[] = [];
  lines.forEach((text, index) => {
    const annotation = ANNOTATION.exec(text);
    if (!annotation) return;
    for (const ruleId of (annotation[2] ?? "").split(/\s*,\s*/)) {
      (annotation[1] === "ruleid" ? expected : silent).push(`${index + 2} ${ruleId}`);
    }
  });
  return { expected: expected.sort(), silent };
}

const UNCHANGED = /\(unchanged\)\s*(\*\/\}?)?$/;

/** The fixture as a change adding every line but its annotations and `(unchanged)` lines (context). */
function fixtureFile(name: string, lines: readonly string[]) {
  const context = (line: string) => UNCHANGED.test(line) || ANNOTATION.test(line);
  const patch = lines.map((line) => (context(line) ? ` ${line}` : `+${line}`));
  return changedFile(name, hunk(patch, 1, 1), { content: `${lines.join("\n")}\n` });
}

const families = readdirSync(FIXTURES).sort();

describe("built-in rule families", () => {
  it("has fixtures for every family and a family for every fixture folder", () => {
    expect(families).toEqual([...builtInFamilies().keys()].sort());
  });

  for (const family of families) {
    describe(family, () => {
      const folder = path.join(FIXTURES, family);
      for (const name of readdirSync(folder).sort()) {
        it(`finds exactly the annotated lines of ${name}`, () => {
          const lines = readFileSync(path.join(folder, name), "utf8").replace(/\n$/, "").split("\n");
          const { expected, silent } = expectedOf(lines);
          const run = runRules([fixtureFile(name, lines)], builtInRules());
          expect(run.failures).toEqual([]);
          const found = run.findings.map((finding) => `${finding.line} ${finding.ruleId}`).sort();
          expect(found).toEqual(expected);
          for (const line of silent) expect(found).not.toContain(line);
          // Each fixture shows its family firing, and every rule it annotates exists.
          expect(expected.some((entry) => entry.includes(` ${family}/`))).toBe(true);
        });
      }
    });
  }

  it("has a switch in the built_in_rules settings for every family, and a family for every switch", () => {
    const switches = settingCategory("built_in_rules")?.default_value.map((item) => item.key) ?? [];
    expect([...builtInFamilies().keys()].map(familySettingKey).sort()).toEqual([...switches].sort());
    expect(familiesOff({ sql_injection: false, xss: true })).toEqual(new Set(["sql-injection"]));
  });

  it("gives every rule a category, a message and a fix, and every security rule a CWE id", () => {
    for (const rule of builtInRules()) {
      expect(rule.category).not.toBe("hygiene");
      expect(rule.fix?.length).toBeGreaterThan(10);
      if (rule.category === "security") expect(rule.cwe).toMatch(/^CWE-\d+$/);
    }
  });

  it("has a fixture that makes every built-in rule fire", () => {
    const annotated = new Set(
      families.flatMap((family) =>
        readdirSync(path.join(FIXTURES, family)).flatMap((name) =>
          expectedOf(readFileSync(path.join(FIXTURES, family, name), "utf8").split("\n")).expected.map(
            (entry) => entry.split(" ")[1],
          ),
        ),
      ),
    );
    expect(
      builtInRules()
        .map((rule) => rule.ruleId)
        .filter((id) => !annotated.has(id)),
    ).toEqual([]);
  });
});
