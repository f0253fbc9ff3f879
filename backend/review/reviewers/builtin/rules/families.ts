/**
 * The built-in rule families (docs/decisions/033): one YAML file per family in `families/`, read
 * with the same loader as a repository's `.argus/rules/*.yml`. A family's id is its file's name;
 * the review settings turn families on and off by it (shared/rule-families.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type LoadedRule, loadRuleFile } from "./rule-config.ts";

const FAMILIES_DIR = path.join(import.meta.dirname, "families");

let loaded: ReadonlyMap<string, readonly LoadedRule[]> | undefined;

/**
 * Every built-in rule, by family. Read once; a built-in rule that does not load is a bug of this
 * repository, so it throws (families.test.ts loads them all).
 */
export function builtInFamilies(): ReadonlyMap<string, readonly LoadedRule[]> {
  if (loaded) return loaded;
  const families = new Map<string, readonly LoadedRule[]>();
  for (const file of readdirSync(FAMILIES_DIR)
    .filter((name) => name.endsWith(".yml"))
    .sort()) {
    const family = file.replace(/\.yml$/, "");
    const result = loadRuleFile(
      readFileSync(path.join(FAMILIES_DIR, file), "utf8"),
      `families/${file}`,
      family,
    );
    const invalid = result.invalid[0];
    if (invalid)
      throw new Error(`Built-in rule ${invalid.id ?? "?"} in ${invalid.path} is invalid: ${invalid.error}`);
    families.set(family, result.rules);
  }
  loaded = families;
  return families;
}

/** A family's switch in the `built_in_rules` settings: `sql-injection` → `sql_injection`. */
export const familySettingKey = (family: string) => family.replaceAll("-", "_");

/** The families a repository's `built_in_rules` settings turn off. */
export function familiesOff(switches: Readonly<Record<string, boolean>>): Set<string> {
  return new Set(
    [...builtInFamilies().keys()].filter((family) => switches[familySettingKey(family)] === false),
  );
}

/** The built-in rules of the families not in `off`. */
export function builtInRules(off: ReadonlySet<string> = new Set()): LoadedRule[] {
  return [...builtInFamilies()].flatMap(([family, rules]) => (off.has(family) ? [] : rules));
}
