/**
 * The languages the rule engine parses (docs/decisions/033): TypeScript, TSX and JavaScript are
 * built into ast-grep; Python and Go come from `@ast-grep/lang-python` and `@ast-grep/lang-go`,
 * registered once when this module loads.
 *
 * A rule names one language as ast-grep's YAML does; a rule for TypeScript, TSX or JavaScript runs
 * on files of all three (each parsed with its own grammar), as an ESLint rule would, so one rule
 * covers a repository's `.ts`, `.tsx` and `.js` files alike.
 */

import go from "@ast-grep/lang-go";
import python from "@ast-grep/lang-python";
import { Lang, type parse, registerDynamicLanguage } from "@ast-grep/napi";
import { extensionOf } from "../analyzer.ts";

registerDynamicLanguage({ python, go });

/** ast-grep's name of a grammar: a built-in `Lang` or a registered one. */
type NapiLang = Parameters<typeof parse>[0];

/** A language the engine parses, as its rules' `language` names it (lower case). */
export type RuleLanguage = "typescript" | "tsx" | "javascript" | "python" | "go";

/** The languages of one family of grammars: a rule for one runs on files of every one. */
export type LanguageGroup = "js" | "python" | "go";

const GRAMMAR: Readonly<Record<RuleLanguage, NapiLang>> = {
  typescript: Lang.TypeScript,
  tsx: Lang.Tsx,
  javascript: Lang.JavaScript,
  python: "python",
  go: "go",
};

/** ast-grep's names and aliases for each language (its `language` field is case-blind). */
const ALIASES: Readonly<Record<string, RuleLanguage>> = {
  typescript: "typescript",
  ts: "typescript",
  tsx: "tsx",
  javascript: "javascript",
  js: "javascript",
  jsx: "javascript",
  python: "python",
  py: "python",
  go: "go",
  golang: "go",
};

const BY_EXTENSION: Readonly<Record<string, RuleLanguage>> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  py: "python",
  go: "go",
};

export const RULE_LANGUAGE_NAMES: readonly string[] = Object.keys(ALIASES);

export function ruleLanguage(name: string): RuleLanguage | undefined {
  return ALIASES[name.toLowerCase()];
}

export function groupOf(language: RuleLanguage): LanguageGroup {
  return language === "python" || language === "go" ? language : "js";
}

export function grammarOf(language: RuleLanguage): NapiLang {
  return GRAMMAR[language];
}

/** The language a file is parsed in, by its extension; undefined for files no rule reads. */
export function fileLanguage(path: string): RuleLanguage | undefined {
  return BY_EXTENSION[extensionOf(path)];
}

/** The languages a rule for `group` is checked against when it is loaded (every grammar it runs on). */
export function languagesOf(group: LanguageGroup): RuleLanguage[] {
  return group === "js" ? ["typescript", "tsx", "javascript"] : [group];
}
