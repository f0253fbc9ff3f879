/**
 * Runs loaded rules (rule-config.ts) over the changed files (docs/decisions/033). Each file is
 * parsed once, in its own grammar, from its whole text at head (or a new file's patch; a modified
 * file known only by its hunks is parsed from them, at their line numbers). A match counts only
 * where it touches an added line, or, for a taint rule, where the data reaching its sink came
 * through an added line; its finding is anchored on that line.
 *
 * A rule that throws on a file (ast-grep refusing it, a bug in a check) is recorded as a failure
 * for that rule and file, and the others run on.
 */
import { parse, type SgNode, type SgRoot } from "@ast-grep/napi";
import type { Finding } from "../../../../../shared/contract/reviews.ts";
import { addedLines, type DiffFile } from "../../../pipeline/diff.ts";
import { createFinding } from "../../../pipeline/findings.ts";
import { pathPatterns } from "../../../pipeline/glob.ts";
import { ImportedFunctions, type RelatedModules } from "./imports.ts";
import { fileLanguage, grammarOf, groupOf, type RuleLanguage } from "./languages.ts";
import { prefilterOf } from "./prefilter.ts";
import type { LoadedRule } from "./rule-config.ts";
import { TaintTracker } from "./taint.ts";
import { merge, SOURCE, type Taint } from "./taint-value.ts";

export interface RuleFailure {
  ruleId: string;
  path: string;
  /** The error's message only. */
  error: string;
}

export interface RuleRun {
  findings: Finding[];
  failures: RuleFailure[];
  /** Modified files parsed from their hunks alone (no content at head): taint there sees less. */
  fromHunks: string[];
}

/** A file's text for the parser, with right-side line numbers kept (hunks placed at their lines). */
function sourceOf(file: DiffFile): { text: string; fromHunks: boolean } {
  if (file.content !== undefined) return { text: file.content, fromHunks: false };
  const lines: string[] = [];
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) if (line.newLine !== null) lines[line.newLine - 1] = line.text;
  }
  return { text: Array.from(lines, (line) => line ?? "").join("\n"), fromHunks: file.status !== "added" };
}

const messageOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 300);

/** `$NAME` in a rule's message is the text that metavariable matched, as ast-grep writes it. */
function interpolate(message: string, match: SgNode): string {
  return message.replace(/\$([A-Z_][A-Z0-9_]*)/g, (whole, name: string) => {
    const text = match.getMatch(name)?.text();
    if (text === undefined) return whole;
    const line = text.replace(/\s+/g, " ");
    return line.length > 80 ? `${line.slice(0, 79)}…` : line;
  });
}

/**
 * Whether a sink's argument carries what the rule looks for: request data as it is; a parameter
 * only when text was built around it (a wrapper passing its parameter straight on is not the place
 * where data comes in), unless the rule says `bare`; anything not constant, for rules that ask so.
 * With `built`, only text built around the data counts. A rule's `text` must match the constant
 * text the argument was built with, when it was built.
 */
function fires(spec: NonNullable<LoadedRule["taint"]>, taint: Taint): boolean {
  if (spec.built && !taint.built) return false;
  const allowed = new Set(spec.sources);
  const hit =
    (allowed.has("request") && (taint.mask & SOURCE.request) !== 0) ||
    (allowed.has("parameter") && (taint.mask & SOURCE.parameter) !== 0 && (taint.built || spec.bare)) ||
    (allowed.has("nonconstant") && (taint.mask & SOURCE.nonconstant) !== 0) ||
    (allowed.has("member") && (taint.mask & SOURCE.member) !== 0);
  if (!hit || !spec.text || !taint.built) return hit;
  return new RegExp(spec.text, "i").test(taint.text.join(" "));
}

/** The metavariable's node, or for `$$$ARGS` the nodes it took. */
function captured(match: SgNode, name: string): SgNode[] {
  const single = match.getMatch(name);
  if (single) return [single];
  return match.getMultipleMatches(name).filter((node) => node.isNamed());
}

/**
 * Whether an `if` in the same function checks the data with one of the rule's guards
 * (`if (!full.startsWith(root))`, `if not path.startswith(base)`, `strings.HasPrefix`, `".."`),
 * before the sink or after it (a path joined, then checked before it is used).
 */
function guarded(
  match: SgNode,
  tracker: TaintTracker,
  guards: readonly string[],
  names: ReadonlySet<string>,
): boolean {
  if (guards.length === 0 || names.size === 0) return false;
  const scope = tracker.enclosingFunction(match) ?? match.getRoot().root();
  const words = guards.filter((guard) => /^[\w$.]+$/.test(guard));
  const texts = guards.filter((guard) => !/^[\w$.]+$/.test(guard));
  const guard = new RegExp(`(^|[^\\w$])(${words.map((name) => name.replace(/[.$]/g, "\\$&")).join("|")})\\b`);
  return scope.findAll({ rule: { kind: "if_statement" } }).some((statement) => {
    const condition = (statement.field("condition") ?? statement).text();
    if (!(words.length && guard.test(condition)) && !texts.some((text) => condition.includes(text)))
      return false;
    return [...names].some((name) =>
      new RegExp(`(^|[^\\w$])${name.replace(/\$/g, "\\$")}([^\\w$]|$)`).test(condition),
    );
  });
}

interface Hit {
  line: number;
  text: string;
}

/**
 * The added line a match is reported on, or null when it touches none (nor does its data). A taint
 * rule's sink given a variable is reported where that variable was last made, when that line is
 * added: the path joined, the query formatted — where the fix goes.
 */
function anchorOf(
  match: SgNode,
  focus: SgNode[],
  taint: Taint | null,
  added: ReadonlyMap<number, string>,
  origin: number | null,
): Hit | null {
  const made = origin === null ? undefined : added.get(origin);
  if (origin !== null && made !== undefined) return { line: origin, text: made };
  const firstAdded = (nodes: SgNode[]): Hit | null => {
    for (const node of nodes) {
      const { start, end } = node.range();
      for (let line = start.line + 1; line <= end.line + 1; line++) {
        const text = added.get(line);
        if (text !== undefined) return { line, text };
      }
    }
    return null;
  };
  // The sink's own lines first, when the sink is part of the match (a metavariable bound in an
  // `inside` clause can be elsewhere).
  const within = focus.filter(
    (node) =>
      node.range().start.index >= match.range().start.index &&
      node.range().end.index <= match.range().end.index,
  );
  const onMatch = firstAdded(within) ?? firstAdded([match]);
  if (onMatch) return onMatch;
  // The sink was there before; the pull request changed what reaches it.
  const through = [...(taint?.lines ?? [])].filter((line) => added.has(line)).sort((a, b) => b - a)[0];
  return through === undefined ? null : { line: through, text: added.get(through) as string };
}

interface ParsedFile {
  file: DiffFile;
  language: RuleLanguage;
  root: SgRoot;
  added: Map<number, string>;
  imported: ImportedFunctions;
}

/** A rule's findings in one file, each with where its function starts (-1 at module level). */
function matchFindings(
  parsed: ParsedFile,
  rule: LoadedRule,
  trackerFor: (rule: LoadedRule) => TaintTracker,
): Array<{ finding: Finding; fn: number }> {
  const { file, root, added, imported } = parsed;
  const findings: Array<{ finding: Finding; fn: number }> = [];
  const matches = root.root().findAll(rule.config);
  for (const match of matches) {
    let taint: Taint | null = null;
    let focus: SgNode[] = [];
    if (rule.taint) {
      const tracker = trackerFor(rule);
      focus = captured(match, rule.taint.sink);
      if (focus.length === 0) continue;
      taint = merge(...focus.map((node) => tracker.of(node)));
      if (!fires(rule.taint, taint)) continue;
      const names = new Set([
        ...taint.names,
        ...focus.flatMap((node) => node.findAll({ rule: { kind: "identifier" } }).map((id) => id.text())),
      ]);
      if (guarded(match, tracker, rule.taint.guards, names)) continue;
    }
    if (rule.literal) {
      const key = match.getMatch(rule.literal);
      const value = key ? trackerFor(rule).literal(key) : null;
      if (!value?.trim()) continue;
      if (key) focus = [key];
    }
    if (rule.async) {
      const callee = match.getMatch(rule.async);
      if (!callee || !imported.isAsyncCallee(callee, file.path)) continue;
    }
    const origin = rule.taint && focus.length === 1 && focus[0] ? trackerFor(rule).origin(focus[0]) : null;
    const at = anchorOf(match, focus, taint, added, origin);
    if (!at) continue;
    const fn = trackerFor(rule).enclosingFunction(match)?.range().start.index ?? -1;
    findings.push({
      fn,
      finding: createFinding({
        ruleId: rule.ruleId,
        severity: rule.severity,
        category: rule.category,
        ...(rule.cwe ? { cwe: rule.cwe } : {}),
        ...(rule.fix ? { fix: interpolate(rule.fix, match) } : {}),
        path: file.path,
        at,
        message: interpolate(rule.message, match),
      }),
    });
  }
  return findings;
}

const prefilters = new WeakMap<LoadedRule, (text: string) => boolean>();

/** Whether the rule may match in `text` at all (prefilter.ts); worked out once per rule. */
function mayMatch(rule: LoadedRule, text: string): boolean {
  let test = prefilters.get(rule);
  if (!test) {
    test = prefilterOf(rule.config);
    prefilters.set(rule, test);
  }
  return test(text);
}

function appliesTo(rule: LoadedRule, path: string): boolean {
  if (rule.files && pathPatterns(rule.files)(path) === undefined) return false;
  return !(rule.ignores && pathPatterns(rule.ignores)(path) !== undefined);
}

/**
 * Runs `rules` on `files`, with `related` the modules they import that the pipeline fetched
 * (imports.ts). One finding per family, path and line: two rules of one family that say the same
 * about a line (a query built with `+`, then run) are one comment.
 */
export function runRules(
  files: readonly DiffFile[],
  rules: readonly LoadedRule[],
  related: RelatedModules = new Map(),
): RuleRun {
  const run: RuleRun = { findings: [], failures: [], fromHunks: [] };
  const imported = new ImportedFunctions(related);
  const seen = new Set<string>();
  for (const file of files) {
    const language = fileLanguage(file.path);
    if (!language) continue;
    const group = groupOf(language);
    const added = new Map(addedLines(file).map(({ line, text }) => [line, text]));
    if (added.size === 0) continue;
    const source = sourceOf(file);
    const applicable = rules.filter(
      (rule) =>
        rule.languages.includes(language) && appliesTo(rule, file.path) && mayMatch(rule, source.text),
    );
    if (applicable.length === 0) continue;
    let root: SgRoot;
    try {
      root = parse(grammarOf(language), source.text);
    } catch (error) {
      for (const rule of applicable)
        run.failures.push({ ruleId: rule.ruleId, path: file.path, error: messageOf(error) });
      continue;
    }
    if (source.fromHunks) run.fromHunks.push(file.path);
    const parsed: ParsedFile = { file, language, root, added, imported };
    const trackers = new Map<string, TaintTracker>();
    const trackerFor = (rule: LoadedRule) => {
      const sanitizers = rule.taint?.sanitizers ?? [];
      const members = rule.taint?.members ?? [];
      const key = `${sanitizers.join("\u0000")}\u0001${members.join("\u0000")}`;
      let tracker = trackers.get(key);
      if (!tracker) {
        tracker = new TaintTracker(root.root(), group, { sanitizers, members });
        trackers.set(key, tracker);
      }
      return tracker;
    };
    for (const rule of applicable) {
      let findings: Array<{ finding: Finding; fn: number }>;
      try {
        findings = matchFindings(parsed, rule, trackerFor);
      } catch (error) {
        run.failures.push({ ruleId: rule.ruleId, path: file.path, error: messageOf(error) });
        continue;
      }
      for (const { finding, fn } of findings) {
        const key = `${rule.family}\u0000${file.path}\u0000${finding.line}`;
        const inFunction = rule.oncePerFunction ? `${rule.family}\u0000${file.path}\u0000@${fn}` : null;
        if (seen.has(key) || (inFunction && seen.has(inFunction))) continue;
        seen.add(key);
        if (inFunction) seen.add(inFunction);
        run.findings.push(finding);
      }
    }
  }
  return run;
}
