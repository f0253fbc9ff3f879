/**
 * The rule loader (docs/decisions/033): ast-grep's rule YAML (`id`, `language`, `rule`,
 * `constraints`, `utils`, `message`, `severity`, `note`, `metadata`, `files`, `ignores`), one rule
 * or several separated by `---`, read the same way for the built-in families
 * (backend/review/reviewers/builtin/rules/families/*.yml) and a repository's `.argus/rules/*.yml`.
 *
 * What the engine takes from `metadata` (all optional, anything else is kept for the team):
 * - `category`: security, logic, resource-leak, race, correctness or hygiene (default hygiene);
 * - `cwe`: `CWE-89`, `89` or `"CWE-89: Improper Neutralization…"`;
 * - `severity`: critical, major, minor or info, over the one ast-grep's `severity` maps to;
 * - `taint`: the metavariable that must carry untrusted data for the rule to fire (taint.ts):
 *   `{ sink: VAR, sources: [request, parameter, nonconstant], sanitizers: [...], guards: [...],
 *   bare, built, text }` (each explained in the schema below and in docs/review-engine.md);
 * - `literal`: VAR, the metavariable that must be a string written in the code (a hard-coded key);
 * - `async`: VAR, the metavariable that must name an async function, declared in the file or
 *   exported by the repository module it was imported from (imports.ts);
 * - `oncePerFunction`: at most one finding of the rule's family per function.
 *
 * Each rule is checked by running it on an empty file of its language, so a rule ast-grep cannot
 * compile (an unknown kind, a bad regex, an undefined utility) is refused here, by name, and never
 * reaches a review.
 */
import { type NapiConfig, parse as parseSource } from "@ast-grep/napi";
import { parseAllDocuments } from "yaml";
import { z } from "zod";
import {
  FINDING_CATEGORIES,
  FINDING_MESSAGE_MAX,
  FINDING_SEVERITY_ORDER,
  type FindingCategory,
  type FindingSeverity,
} from "../../../../../shared/contract/reviews.ts";
import {
  grammarOf,
  groupOf,
  type LanguageGroup,
  languagesOf,
  RULE_LANGUAGE_NAMES,
  type RuleLanguage,
  ruleLanguage,
} from "./languages.ts";

/** Larger rule files are refused unread. */
export const RULE_FILE_BYTES_MAX = 64_000;
/** Rules in one file, at most. */
export const RULES_PER_FILE_MAX = 50;

/** Where untrusted data may come from (taint.ts). */
export const TAINT_SOURCES = ["request", "parameter", "nonconstant", "member"] as const;
export type TaintSource = (typeof TAINT_SOURCES)[number];

/** ast-grep's severities, mapped onto the finding's; `off` turns the rule off. */
const AST_GREP_SEVERITY: Readonly<Record<string, FindingSeverity | "off">> = {
  error: "major",
  warning: "minor",
  info: "info",
  hint: "info",
  off: "off",
};

const metaVariable = z
  .string()
  .regex(/^\$?[A-Z_][A-Z0-9_]*$/, "a metavariable name such as $ARG")
  .transform((name) => name.replace(/^\$/, ""));

const relational = z.record(z.string(), z.unknown());

const metadataSchema = z
  .object({
    category: z.enum(FINDING_CATEGORIES).optional(),
    cwe: z
      .union([z.string(), z.number().int().positive()])
      .transform((value, context) => {
        const id =
          typeof value === "number" ? String(value) : /^(?:CWE-)?(\d{1,5})\b/i.exec(value.trim())?.[1];
        if (!id) {
          context.addIssue({ code: "custom", message: "a CWE id such as CWE-89" });
          return z.NEVER;
        }
        return `CWE-${Number(id)}`;
      })
      .optional(),
    severity: z.enum(FINDING_SEVERITY_ORDER).optional(),
    taint: z
      .object({
        sink: metaVariable,
        sources: z.array(z.enum(TAINT_SOURCES)).min(1).default(["request", "parameter"]),
        /** Calls whose result is clean (an escape function); calls not named here are clean anyway unless they pass data through. */
        sanitizers: z.array(z.string().min(1).max(100)).max(50).default([]),
        /** Members whose value is untrusted data, the `member` source (an archive entry's `entryName`). */
        members: z
          .array(z.string().regex(/^[A-Za-z_$][\w$]*$/))
          .max(50)
          .default([]),
        /** Calls that, in an `if` before the sink naming the same data, show it was checked. */
        guards: z.array(z.string().min(1).max(100)).max(50).default([]),
        /** A parameter passed straight to the sink counts (the data is the payload: deserialisation). */
        bare: z.boolean().default(false),
        /** Only data built into text counts, whatever its source (HTML written into a response). */
        built: z.boolean().default(false),
        /** A regular expression the constant text around the data must match (SQL words for a query). */
        text: z
          .string()
          .max(500)
          .refine((pattern) => {
            try {
              new RegExp(pattern, "i");
              return true;
            } catch {
              return false;
            }
          }, "a regular expression")
          .optional(),
      })
      .strict()
      .optional(),
    literal: metaVariable.optional(),
    async: metaVariable.optional(),
    /** At most one finding of the rule's family per function: several views of one flaw (a merge's loop and its write). */
    oncePerFunction: z.boolean().optional(),
  })
  .passthrough();

const globs = z.array(z.string().min(1).max(200)).max(50);

const ruleFileSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, dots, dashes and underscores"),
    language: z.string().refine((name) => ruleLanguage(name) !== undefined, {
      message: `one of ${RULE_LANGUAGE_NAMES.join(", ")}`,
    }),
    rule: relational,
    constraints: z.record(z.string(), relational).optional(),
    utils: z.record(z.string(), relational).optional(),
    message: z.string().trim().min(1).max(FINDING_MESSAGE_MAX),
    severity: z.enum(["error", "warning", "info", "hint", "off"]).default("hint"),
    note: z.string().trim().min(1).max(FINDING_MESSAGE_MAX).optional(),
    metadata: metadataSchema.optional(),
    files: globs.optional(),
    ignores: globs.optional(),
    // ast-grep's rewriting and linking fields: accepted, not used (a review only reports).
    fix: z.unknown().optional(),
    transform: z.unknown().optional(),
    rewriters: z.unknown().optional(),
    url: z.string().optional(),
    labels: z.unknown().optional(),
  })
  .strict();

/** A rule ready to run. */
export interface LoadedRule {
  /** The finding's rule id: `<family>/<id>` for built-in rules, `team/<id>` for a repository's. */
  ruleId: string;
  /** The YAML's own id. */
  id: string;
  /** The file it was read from. */
  path: string;
  /** The built-in family (its file's name), or "team". */
  family: string;
  /** The language the rule names. */
  language: RuleLanguage;
  group: LanguageGroup;
  /** The grammars the rule runs on: its own language's and those of its group that compile it. */
  languages: RuleLanguage[];
  /** What ast-grep runs: the `rule` with its `constraints` and `utils`. */
  config: NapiConfig;
  severity: FindingSeverity;
  category: FindingCategory;
  cwe?: string;
  message: string;
  fix?: string;
  taint?: {
    sink: string;
    sources: TaintSource[];
    sanitizers: string[];
    members: string[];
    guards: string[];
    bare: boolean;
    built: boolean;
    text?: string;
  };
  literal?: string;
  async?: string;
  oncePerFunction?: boolean;
  files?: string[];
  ignores?: string[];
}

/** A rule (or a whole file) that was refused, and why. */
export interface InvalidRule {
  path: string;
  /** The rule's id when the document got that far. */
  id?: string;
  error: string;
}

export interface RuleFileResult {
  rules: LoadedRule[];
  invalid: InvalidRule[];
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || "rule"}: ${issue?.message ?? "invalid"}`;
}

/** What ast-grep says when it cannot compile the rule for `language`, or null when it can. */
function compileProblem(config: NapiConfig, language: RuleLanguage): string | null {
  try {
    parseSource(grammarOf(language), "").root().findAll(config);
    return null;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 300);
  }
}

/** Metavariables a `taint`, `literal` or `async` names must be captured by the rule's patterns. */
function namesMetaVariable(rule: unknown, name: string): boolean {
  return new RegExp(`\\$\\$?\\$?${name}\\b`).test(JSON.stringify(rule));
}

type Loaded = { rule: LoadedRule } | { off: string } | { invalid: InvalidRule };

function loadRule(document: unknown, path: string, family: string): Loaded {
  const rawId =
    typeof document === "object" && document && "id" in document && typeof document.id === "string"
      ? document.id
      : undefined;
  const refused = (error: string): Loaded => ({ invalid: { path, ...(rawId ? { id: rawId } : {}), error } });
  const checked = ruleFileSchema.safeParse(document);
  if (!checked.success) return refused(issueText(checked.error));
  const rule = checked.data;
  const language = ruleLanguage(rule.language) as RuleLanguage;
  const group = groupOf(language);
  const config: NapiConfig = {
    rule: rule.rule,
    ...(rule.constraints ? { constraints: rule.constraints } : {}),
    ...(rule.utils ? { utils: rule.utils } : {}),
  };
  // The rule must compile for the language it names; it also runs on the other grammars of its
  // group that compile it (a TSX-only node kind keeps a rule off plain TypeScript files).
  const problem = compileProblem(config, language);
  if (problem) return refused(problem);
  const languages = languagesOf(group).filter(
    (other) => other === language || compileProblem(config, other) === null,
  );
  const metadata = rule.metadata;
  for (const name of [metadata?.taint?.sink, metadata?.literal, metadata?.async]) {
    if (name && !namesMetaVariable(rule.rule, name)) {
      return refused(`metadata: $${name} is not a metavariable of the rule`);
    }
  }
  const mapped = AST_GREP_SEVERITY[rule.severity] ?? "info";
  // `severity: off` keeps a rule in the file without running it.
  if (mapped === "off") return { off: rule.id };
  const loaded: LoadedRule = {
    ruleId: `${family}/${rule.id}`,
    id: rule.id,
    path,
    family,
    language,
    group,
    languages,
    config,
    severity: metadata?.severity ?? mapped,
    category: metadata?.category ?? "hygiene",
    ...(metadata?.cwe ? { cwe: metadata.cwe } : {}),
    message: rule.message,
    ...(rule.note ? { fix: rule.note } : {}),
    ...(metadata?.taint ? { taint: metadata.taint } : {}),
    ...(metadata?.literal ? { literal: metadata.literal } : {}),
    ...(metadata?.async ? { async: metadata.async } : {}),
    ...(metadata?.oncePerFunction ? { oncePerFunction: true } : {}),
    ...(rule.files ? { files: rule.files } : {}),
    ...(rule.ignores ? { ignores: rule.ignores } : {}),
  };
  return { rule: loaded };
}

/**
 * Every rule of one YAML file. A file that is too large or not YAML is one invalid entry; otherwise
 * each document is loaded or refused on its own, so one bad rule does not cost the file's others.
 * Rules with `severity: off` are left out.
 */
export function loadRuleFile(text: string, path: string, family: string): RuleFileResult {
  if (Buffer.byteLength(text) > RULE_FILE_BYTES_MAX) {
    return { rules: [], invalid: [{ path, error: `larger than ${RULE_FILE_BYTES_MAX} bytes` }] };
  }
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  const broken = list.find((document) => document.errors.length > 0);
  if (broken) {
    const message = broken.errors[0]?.message.split("\n")[0] ?? "invalid";
    return { rules: [], invalid: [{ path, error: `not valid YAML: ${message}` }] };
  }
  const contents = list.map((document) => document.toJS({ maxAliasCount: 0 })).filter((d) => d != null);
  if (contents.length > RULES_PER_FILE_MAX) {
    return { rules: [], invalid: [{ path, error: `more than ${RULES_PER_FILE_MAX} rules` }] };
  }
  const result: RuleFileResult = { rules: [], invalid: [] };
  const seen = new Set<string>();
  for (const document of contents) {
    const loaded = loadRule(document, path, family);
    if ("invalid" in loaded) {
      result.invalid.push(loaded.invalid);
      continue;
    }
    const id = "off" in loaded ? loaded.off : loaded.rule.id;
    if (seen.has(id)) result.invalid.push({ path, id, error: "a rule with this id came before in the file" });
    else if ("rule" in loaded) result.rules.push(loaded.rule);
    seen.add(id);
  }
  return result;
}
