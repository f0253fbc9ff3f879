/**
 * The review quality corpus (bench/review-quality/corpus/), two sets of small pull requests:
 * - written for this benchmark: a folder `<lang>-<nn>-<slug>` with `base/` (the files before),
 *   `patch.diff` (a unified diff, as `git diff` writes it) and `case.yaml` (clean, or the defects
 *   planted in it);
 * - real-world: a folder `rw-<lang>-<nn>-<slug>` with only `case.yaml`, naming a commit of a public
 *   repository (a security fix, reversed, or an ordinary clean commit) and where its defects are.
 *   The code itself is not in this repository: it is read from a local clone of each source
 *   repository at bench time (real-world.ts; docs/decisions/034-real-world-review-corpus.md).
 * Loading a case applies its patch to its base, strictly: a context or removed line that is not in
 * the base at its place is an error, so every case is known to apply.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import parseDiff from "parse-diff";
import YAML from "yaml";
import { z } from "zod";
import type { PullRequestFile } from "../../backend/review/pipeline/diff.ts";
import { addedLines, fromPullRequestFiles, RightSideIndex } from "../../backend/review/pipeline/diff.ts";
import type { FindingCategory } from "../../shared/contract/reviews.ts";
import {
  materialise,
  type RealWorldSource,
  realWorldSourceSchema,
  SourceUnavailableError,
} from "./real-world.ts";

export const CORPUS_DIR = path.join(import.meta.dirname, "corpus");

/** `js` is plain JavaScript (most npm packages); `ts` TypeScript. */
export const LANGUAGES = ["ts", "js", "py", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

export const CASE_SETS = ["written", "real-world"] as const;
export type CaseSet = (typeof CASE_SETS)[number];

/** The finding categories a defect can be in: the others (correctness, hygiene) are not defects here. */
export const DEFECT_CATEGORIES = [
  "logic",
  "security",
  "resource-leak",
  "race",
] as const satisfies readonly FindingCategory[];
export type DefectCategory = (typeof DEFECT_CATEGORIES)[number];

/** Planted defects are never mere notes: info is a finding's severity, not a defect's. */
export const DEFECT_SEVERITIES = ["critical", "major", "minor"] as const;
export type DefectSeverity = (typeof DEFECT_SEVERITIES)[number];

const WRITTEN_ID = /^(ts|py|go)-\d{2}-[a-z0-9-]+$/;
const REAL_WORLD_ID = /^rw-(ts|js|py|go)-\d{2}-[a-z0-9-]+$/;

const plantedDefectSchema = z.object({
  path: z.string().min(1),
  /** Right-side (head) line where the defect is; `end_line` when it spans several. */
  line: z.number().int().positive(),
  end_line: z.number().int().positive().optional(),
  /** Text the head line holds, so a case whose lines moved fails validation (written cases). */
  text: z.string().min(1).optional(),
  /**
   * sha256 (hex) of the head line with white space collapsed (real-world cases, whose code is not
   * kept in this repository): the same check without quoting their code.
   */
  text_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  severity: z.enum(DEFECT_SEVERITIES),
  category: z.enum(DEFECT_CATEGORIES),
  /** The weakness, e.g. `CWE-89`, where one applies. */
  cwe: z
    .string()
    .regex(/^CWE-\d{1,5}$/)
    .optional(),
  description: z.string().min(1),
});

const caseFileSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("defect"),
    title: z.string().min(1),
    source: realWorldSourceSchema.optional(),
    defects: z.array(plantedDefectSchema).min(1),
  }),
  z.object({ kind: z.literal("clean"), title: z.string().min(1), source: realWorldSourceSchema.optional() }),
]);
type CaseFile = z.infer<typeof caseFileSchema>;

export interface PlantedDefect {
  path: string;
  line: number;
  endLine: number;
  /** The head line's text (written cases) … */
  text?: string;
  /** … or its sha256, white space collapsed (real-world cases). */
  textSha256?: string;
  severity: DefectSeverity;
  category: DefectCategory;
  cwe?: string;
  description: string;
}

export interface CorpusCase {
  id: string;
  set: CaseSet;
  language: Language;
  kind: "defect" | "clean";
  title: string;
  /** Where a real-world case comes from; absent for a written one. */
  source?: RealWorldSource;
  defects: PlantedDefect[];
  base: ReadonlyMap<string, string>;
  head: ReadonlyMap<string, string>;
  /** The changed files as GitHub's "list pull request files" answers them, `patch` hunks included. */
  files: PullRequestFile[];
}

const linesOf = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
const textOf = (lines: readonly string[]) => (lines.length ? `${lines.join("\n")}\n` : "");

function statusOf(file: parseDiff.File): PullRequestFile["status"] {
  if (file.new || file.from === "/dev/null") return "added";
  if (file.deleted || file.to === "/dev/null") return "removed";
  if (file.from && file.to && file.from !== file.to) return "renamed";
  return "modified";
}

/**
 * Applies a unified diff to `base` (path → text; every text ends with a newline): the head tree and
 * the changed files in GitHub's shape. Throws when a hunk does not match the base.
 */
export function applyPatch(
  base: ReadonlyMap<string, string>,
  patch: string,
): { head: Map<string, string>; files: PullRequestFile[] } {
  const head = new Map(base);
  const files: PullRequestFile[] = [];
  for (const file of parseDiff(patch)) {
    const status = statusOf(file);
    const from = status === "added" ? undefined : file.from;
    const to = status === "removed" ? undefined : file.to;
    const name = to ?? from;
    if (!name) throw new Error("a file of the patch has no name");
    if (from !== undefined && !base.has(from)) throw new Error(`${from}: not in the base`);
    if (status === "added" && base.has(name)) throw new Error(`${name}: added, but already in the base`);
    const old = linesOf(from === undefined ? "" : (base.get(from) ?? ""));
    const result: string[] = [];
    let cursor = 0;
    for (const chunk of file.chunks) {
      const start = Math.max(0, chunk.oldStart - 1);
      if (start < cursor) throw new Error(`${name}: hunks overlap at line ${chunk.oldStart}`);
      result.push(...old.slice(cursor, start));
      cursor = start;
      for (const change of chunk.changes) {
        if (change.content.startsWith("\\")) continue;
        const text = change.content.slice(1);
        if (change.type === "add") {
          result.push(text);
          continue;
        }
        if (old[cursor] !== text) {
          throw new Error(
            `${name}: base line ${cursor + 1} is ${JSON.stringify(old[cursor])}, the patch expects ${JSON.stringify(text)}`,
          );
        }
        if (change.type === "normal") result.push(text);
        cursor++;
      }
    }
    result.push(...old.slice(cursor));
    if (from !== undefined) head.delete(from);
    if (to !== undefined) head.set(to, textOf(result));
    files.push({
      filename: name,
      ...(status === "renamed" && from ? { previous_filename: from } : {}),
      status,
      additions: file.additions,
      deletions: file.deletions,
      patch: file.chunks
        .map((chunk) => [chunk.content, ...chunk.changes.map((change) => change.content)].join("\n"))
        .join("\n"),
    });
  }
  return { head, files };
}

async function readTree(root: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    tree.set(path.relative(root, full).split(path.sep).join("/"), await readFile(full, "utf8"));
  }
  return tree;
}

async function readCaseFile(dir: string): Promise<unknown> {
  for (const name of ["case.yaml", "case.json"]) {
    const text = await readFile(path.join(dir, name), "utf8").catch(() => null);
    if (text !== null) return name.endsWith(".json") ? JSON.parse(text) : YAML.parse(text);
  }
  throw new Error(`${path.basename(dir)}: no case.yaml or case.json`);
}

function defectsOf(described: CaseFile): PlantedDefect[] {
  if (described.kind !== "defect") return [];
  return described.defects.map(({ end_line, text_sha256, ...defect }) => ({
    ...defect,
    ...(text_sha256 ? { textSha256: text_sha256 } : {}),
    endLine: end_line ?? defect.line,
  }));
}

/** The set a case folder belongs to, by its name; throws on a name of neither form. */
export function setOf(id: string): CaseSet {
  if (REAL_WORLD_ID.test(id)) return "real-world";
  if (WRITTEN_ID.test(id)) return "written";
  throw new Error(`${id}: not a <lang>-<nn>-<slug> or rw-<lang>-<nn>-<slug> folder name`);
}

/** A case's description, without its code: what can be checked with no source at hand. */
export async function readCaseDescription(dir: string): Promise<CaseFile> {
  return caseFileSchema.parse(await readCaseFile(dir));
}

/**
 * Loads a case. A real-world case reads its code from `sources` (real-world.ts); it throws
 * `SourceUnavailableError` when no clone of its repository is there.
 */
export async function loadCase(dir: string, sources?: string): Promise<CorpusCase> {
  const id = path.basename(dir);
  const set = setOf(id);
  const described = await readCaseDescription(dir);
  const common = {
    id,
    set,
    language: id.replace(/^rw-/, "").slice(0, 2) as Language,
    kind: described.kind,
    title: described.title,
    defects: defectsOf(described),
  };
  if (set === "real-world") {
    if (!described.source) throw new Error(`${id}: a real-world case names its source`);
    const { base, patch } = materialise(described.source, sources);
    return { ...common, source: described.source, base, ...applyPatch(base, patch) };
  }
  if (described.source) throw new Error(`${id}: a written case has no source`);
  const base = await readTree(path.join(dir, "base")).catch(() => new Map<string, string>());
  const { head, files } = applyPatch(base, await readFile(path.join(dir, "patch.diff"), "utf8"));
  return { ...common, base, head, files };
}

export interface LoadedCorpus {
  cases: CorpusCase[];
  /** Real-world cases whose source repository is not at hand, with the reason. */
  unavailable: { id: string; reason: string }[];
}

/**
 * Every case of the corpus in name order, or only those whose id is in `only`; real-world cases
 * read their code from `sources` (default: the QUALITY_SOURCES environment variable).
 */
export async function loadCorpus(
  options: { dir?: string; only?: readonly string[]; sources?: string } = {},
): Promise<LoadedCorpus> {
  const dir = options.dir ?? CORPUS_DIR;
  const sources = options.sources ?? process.env.QUALITY_SOURCES;
  const ids = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && (!options.only || options.only.includes(entry.name)))
    .map((entry) => entry.name)
    .sort();
  const loaded: LoadedCorpus = { cases: [], unavailable: [] };
  for (const id of ids) {
    try {
      loaded.cases.push(await loadCase(path.join(dir, id), sources));
    } catch (error) {
      if (!(error instanceof SourceUnavailableError)) throw error;
      loaded.unavailable.push({ id, reason: error.message });
    }
  }
  return loaded;
}

/** sha256 (hex) of a line with white space collapsed: how a real-world defect names its line. */
export function lineSha256(text: string): string {
  return createHash("sha256").update(text.trim().replace(/\s+/g, " ")).digest("hex");
}

/** The right-side lines each changed file adds, by path. */
export function addedLinesByPath(files: readonly PullRequestFile[]): Map<string, Set<number>> {
  return new Map(
    fromPullRequestFiles(files).map((file) => [file.path, new Set(addedLines(file).map(({ line }) => line))]),
  );
}

/**
 * What is wrong with a loaded case: each planted defect must be on a line of the diff holding its
 * text (or text hash); a real-world defect must be on a line the change adds, the line a reviewer
 * of added lines can flag (docs/decisions/034-real-world-review-corpus.md).
 */
export function caseProblems(corpusCase: CorpusCase): string[] {
  const problems: string[] = [];
  const shown = new RightSideIndex(fromPullRequestFiles(corpusCase.files));
  const added = addedLinesByPath(corpusCase.files);
  for (const defect of corpusCase.defects) {
    const where = `${corpusCase.id} ${defect.path}:${defect.line}`;
    const lines = linesOf(corpusCase.head.get(defect.path) ?? "");
    const line = lines[defect.line - 1];
    if (!corpusCase.head.has(defect.path)) problems.push(`${where}: no such file at head`);
    else if (defect.text === undefined && defect.textSha256 === undefined)
      problems.push(`${where}: names neither the line's text nor its sha256`);
    else if (defect.text !== undefined && !line?.includes(defect.text))
      problems.push(`${where}: the head line does not hold ${JSON.stringify(defect.text)}`);
    else if (
      defect.textSha256 !== undefined &&
      (line === undefined || lineSha256(line) !== defect.textSha256)
    )
      problems.push(`${where}: the head line's sha256 is not ${defect.textSha256}`);
    if (defect.endLine < defect.line || defect.endLine > lines.length)
      problems.push(`${where}: end line ${defect.endLine} outside the file`);
    if (!shown.has(defect.path, defect.line)) problems.push(`${where}: not a line the diff shows`);
    if (corpusCase.set === "real-world" && !added.get(defect.path)?.has(defect.line))
      problems.push(`${where}: not a line the change adds`);
  }
  if (corpusCase.kind === "clean" && corpusCase.defects.length)
    problems.push(`${corpusCase.id}: clean with defects`);
  return problems;
}

/** The text of right-side line `line` of `path` at head. */
export function headLine(corpusCase: CorpusCase, filePath: string, line: number): string | undefined {
  return linesOf(corpusCase.head.get(filePath) ?? "")[line - 1];
}
