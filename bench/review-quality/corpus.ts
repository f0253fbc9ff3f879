/**
 * The review quality corpus (bench/review-quality/corpus/): small pull requests written for this
 * benchmark, each a folder `<lang>-<nn>-<slug>` with `base/` (the files before), `patch.diff` (a
 * unified diff, as `git diff` writes it) and `case.yaml` (clean, or the defects planted in it).
 * Loading a case applies its patch to its base, strictly: a context or removed line that is not in
 * the base at its place is an error, so every case is known to apply.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import parseDiff from "parse-diff";
import YAML from "yaml";
import { z } from "zod";
import type { PullRequestFile } from "../../backend/review/diff.ts";
import { fromPullRequestFiles, RightSideIndex } from "../../backend/review/diff.ts";

export const CORPUS_DIR = path.join(import.meta.dirname, "corpus");

export const LANGUAGES = ["ts", "py", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFECT_CATEGORIES = ["logic", "security", "resource-leak", "race"] as const;
export type DefectCategory = (typeof DEFECT_CATEGORIES)[number];

/** Planted defects are never mere notes: info is a finding's severity, not a defect's. */
export const DEFECT_SEVERITIES = ["critical", "major", "minor"] as const;
export type DefectSeverity = (typeof DEFECT_SEVERITIES)[number];

const CASE_ID = /^(ts|py|go)-\d{2}-[a-z0-9-]+$/;

const plantedDefectSchema = z.object({
  path: z.string().min(1),
  /** Right-side (head) line where the defect is; `end_line` when it spans several. */
  line: z.number().int().positive(),
  end_line: z.number().int().positive().optional(),
  /** Text the head line holds, so a case whose lines moved fails validation. */
  text: z.string().min(1),
  severity: z.enum(DEFECT_SEVERITIES),
  category: z.enum(DEFECT_CATEGORIES),
  description: z.string().min(1),
});

const caseFileSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("defect"),
    title: z.string().min(1),
    defects: z.array(plantedDefectSchema).min(1),
  }),
  z.object({ kind: z.literal("clean"), title: z.string().min(1) }),
]);

export interface PlantedDefect {
  path: string;
  line: number;
  endLine: number;
  text: string;
  severity: DefectSeverity;
  category: DefectCategory;
  description: string;
}

export interface CorpusCase {
  id: string;
  language: Language;
  kind: "defect" | "clean";
  title: string;
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

export async function loadCase(dir: string): Promise<CorpusCase> {
  const id = path.basename(dir);
  if (!CASE_ID.test(id)) throw new Error(`${id}: not a <lang>-<nn>-<slug> folder name`);
  const described = caseFileSchema.parse(await readCaseFile(dir));
  const base = await readTree(path.join(dir, "base")).catch(() => new Map<string, string>());
  const { head, files } = applyPatch(base, await readFile(path.join(dir, "patch.diff"), "utf8"));
  return {
    id,
    language: id.slice(0, 2) as Language,
    kind: described.kind,
    title: described.title,
    defects:
      described.kind === "defect"
        ? described.defects.map(({ end_line, ...defect }) => ({
            ...defect,
            endLine: end_line ?? defect.line,
          }))
        : [],
    base,
    head,
    files,
  };
}

/** Every case of the corpus in name order, or only those whose id is in `only`. */
export async function loadCorpus(options: { dir?: string; only?: readonly string[] } = {}) {
  const dir = options.dir ?? CORPUS_DIR;
  const ids = (await readdir(dir)).filter((id) => !options.only || options.only.includes(id)).sort();
  return Promise.all(ids.map((id) => loadCase(path.join(dir, id))));
}

/** What is wrong with a loaded case: each planted defect must be on a line of the diff holding its text. */
export function caseProblems(corpusCase: CorpusCase): string[] {
  const problems: string[] = [];
  const shown = new RightSideIndex(fromPullRequestFiles(corpusCase.files));
  for (const defect of corpusCase.defects) {
    const where = `${corpusCase.id} ${defect.path}:${defect.line}`;
    const lines = linesOf(corpusCase.head.get(defect.path) ?? "");
    if (!corpusCase.head.has(defect.path)) problems.push(`${where}: no such file at head`);
    else if (!lines[defect.line - 1]?.includes(defect.text))
      problems.push(`${where}: the head line does not hold ${JSON.stringify(defect.text)}`);
    if (defect.endLine < defect.line || defect.endLine > lines.length)
      problems.push(`${where}: end line ${defect.endLine} outside the file`);
    if (!shown.has(defect.path, defect.line)) problems.push(`${where}: not a line the diff shows`);
  }
  if (corpusCase.kind === "clean" && corpusCase.defects.length)
    problems.push(`${corpusCase.id}: clean with defects`);
  return problems;
}

/** The text of right-side line `line` of `path` at head. */
export function headLine(corpusCase: CorpusCase, filePath: string, line: number): string | undefined {
  return linesOf(corpusCase.head.get(filePath) ?? "")[line - 1];
}
