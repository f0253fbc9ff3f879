/**
 * A cheap test before ast-grep runs a rule on a file (docs/decisions/033): the words a rule cannot
 * match without (`console` for `console.log($$$)`; `query`, `execute`… for a callee regex of
 * alternatives). A file whose text holds none of them cannot hold a match, and the rule is not run
 * on it: compiling and running every rule on every file is most of the engine's time. Worked out
 * from the rule itself, so a team's rules get it too; a rule it cannot read (a `kind` alone, a
 * metavariable pattern, a regex with classes) is always run. It only ever answers "maybe": the
 * families' fixtures (families.test.ts) show every rule still fires where it should.
 */
import type { NapiConfig } from "@ast-grep/napi";

type Rule = Record<string, unknown>;
type Constraints = Readonly<Record<string, Rule>>;

/**
 * A word the text must hold: a pattern's identifier whole and in its case; a regex's anywhere (it
 * may be part of a longer name: `passw`), in any case when the regex says `(?i)`.
 */
interface Word {
  text: string;
  whole: boolean;
  anyCase: boolean;
}
/** Any one of the words will do; null when nothing can be said. */
type Need = Word[] | null;

/** Words that say nothing about a file (nearly every file of the language has them). */
const KEYWORDS = new Set([
  "const",
  "let",
  "var",
  "function",
  "return",
  "new",
  "def",
  "func",
  "for",
  "if",
  "else",
  "True",
  "False",
  "true",
  "false",
  "None",
  "nil",
  "null",
  "this",
  "self",
]);

/** The longest telling word among `words`, as a one-word need. */
function longest(words: readonly string[], make: (text: string) => Word, min = 2): Need {
  const telling = words.filter((word) => word.length >= min && !KEYWORDS.has(word));
  if (telling.length === 0) return null;
  return [make(telling.reduce((a, b) => (b.length > a.length ? b : a)))];
}

/**
 * Among needs that each hold on their own, the most telling: the one whose shortest word is
 * longest (`render` says more than `res`, which is in `results`), then the one with fewest words.
 */
function best(needs: readonly Need[]): Need {
  const known = needs.filter((need): need is Word[] => need !== null && need.length > 0);
  const shortest = (need: Word[]) => Math.min(...need.map((word) => word.text.length));
  known.sort((a, b) => shortest(b) - shortest(a) || a.length - b.length);
  return known[0] ?? null;
}

/** Every alternative must be knowable; then any of their words may be the one present. */
function union(needs: readonly Need[]): Need {
  return needs.length > 0 && needs.every((need) => need !== null) ? (needs.flat() as Word[]) : null;
}

/** A regex split at its `|`s outside groups, with its top-level groups and what is outside them. */
function topLevel(source: string) {
  const branches: string[] = [];
  const groups: Array<{ body: string; optional: boolean }> = [];
  let outside = "";
  let depth = 0;
  let start = 0;
  let groupStart = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") {
      if (depth === 0) outside += source.slice(index, index + 2);
      index += 1;
    } else if (char === "[") {
      const end = source.indexOf("]", index + 1);
      if (depth === 0) outside += " ";
      index = end < 0 ? source.length : end;
    } else if (char === "(") {
      if (depth === 0) groupStart = index;
      depth += 1;
    } else if (char === ")") {
      depth -= 1;
      if (depth === 0) {
        const body = source.slice(groupStart + 1, index).replace(/^\?:/, "");
        groups.push({ body, optional: /[?*{]/.test(source[index + 1] ?? "") });
        outside += " ";
      }
    } else if (char === "|" && depth === 0) {
      branches.push(source.slice(start, index));
      start = index + 1;
    } else if (depth === 0) outside += char;
  }
  branches.push(source.slice(start));
  return { branches, groups, outside };
}

/** What a regex cannot match without. */
function regexNeed(regex: string, depth = 0): Need {
  if (depth > 10) return null;
  const anyCase = /^\(\?i\)/.test(regex);
  const make = (text: string): Word => ({ text, whole: false, anyCase });
  const inner = (source: string) => regexNeed(anyCase ? `(?i)${source}` : source, depth + 1);
  const { branches, groups, outside } = topLevel(regex.replace(/^\(\?i\)/, ""));
  if (branches.length > 1) return union(branches.map(inner));
  // Literal words outside groups, not made optional by a quantifier after them.
  const literal = outside.replace(/\\[sSwWdDbBAzZ]/g, " ").replace(/\\(.)/g, "$1");
  const required = [...literal.matchAll(/[A-Za-z_]\w*(?![\w?*{])/g)].map((match) => match[0]);
  return (
    longest(required, make) ??
    best(groups.filter((group) => !group.optional).map((group) => inner(group.body)))
  );
}

/** A pattern's telling identifier, or, for one made of metavariables, a constraint's on one of them. */
function patternNeed(pattern: string, constraints: Constraints): Need {
  const words = pattern.replace(/\$\$?\$?[A-Z_][A-Z0-9_]*/g, " ").match(/[A-Za-z_]\w*/g) ?? [];
  const own = longest(words, (text) => ({ text, whole: true, anyCase: false }));
  if (own) return own;
  const variables = [...pattern.matchAll(/\$\$?\$?([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1] ?? "");
  return best(
    variables.map((name) => {
      const regex = constraints[name]?.regex;
      return typeof regex === "string" ? regexNeed(regex) : null;
    }),
  );
}

/** Words one of which the rule's match needs in the file. */
function needOf(
  rule: Rule,
  utils: Readonly<Record<string, Rule>>,
  constraints: Constraints,
  depth = 0,
): Need {
  if (depth > 20) return null;
  const found: Need[] = [];
  const next = (part: unknown) => needOf(part as Rule, utils, constraints, depth + 1);
  if (typeof rule.pattern === "string") found.push(patternNeed(rule.pattern, constraints));
  if (typeof rule.regex === "string") found.push(regexNeed(rule.regex));
  for (const key of ["has", "inside", "precedes", "follows"]) {
    if (rule[key] && typeof rule[key] === "object") found.push(next(rule[key]));
  }
  if (Array.isArray(rule.all)) found.push(...rule.all.map(next));
  if (Array.isArray(rule.any)) found.push(union(rule.any.map(next)));
  if (typeof rule.matches === "string" && utils[rule.matches]) found.push(next(utils[rule.matches]));
  // Every condition holds, so any one that can tell is enough.
  return best(found);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A test of a file's text: false only when the rule cannot match in it. */
export function prefilterOf(config: NapiConfig): (text: string) => boolean {
  const need = needOf(
    config.rule as Rule,
    (config.utils ?? {}) as Record<string, Rule>,
    (config.constraints ?? {}) as Constraints,
  );
  if (!need) return () => true;
  const tests = need.map(({ text, whole, anyCase }) => {
    const word = escapeRegex(text);
    return new RegExp(whole ? `(?<![\\w$])${word}(?![\\w$])` : word, anyCase ? "i" : "");
  });
  return (text) => tests.some((test) => test.test(text));
}
