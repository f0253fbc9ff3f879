/**
 * The real-world set's code: each case names a commit of a public repository, and its files are
 * read with git from a local clone of that repository at bench time, never copied into this one
 * (docs/decisions/034-real-world-review-corpus.md). `QUALITY_SOURCES` is a folder holding one git
 * directory per repository, `<owner>+<name>` (or `<owner>+<name>/repo`, or `<owner>+<name>.git`);
 * without it, or without a repository's clone, its cases are reported as unavailable.
 * - A reversed fix (`change: reversed-fix`): the base is the fix commit, the head its first parent,
 *   so the pull request puts the vulnerable code back.
 * - A clean commit (`change: commit`): the base is the commit's first parent, the head the commit.
 * Only the case's `paths` are read, and the patch is `git diff` of those paths, three lines of
 * context, as GitHub shows it.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const ADVISORY = /^(CVE-\d{4}-\d{4,}|GHSA(-[0-9a-z]{4}){3}|GHSL-\d{4}-\d{3,})$/;

export const realWorldSourceSchema = z
  .object({
    /** `owner/name` on GitHub. */
    repository: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
    /** The registry and package the code ships in, e.g. `npm axios`, `PyPI requests`, `Go github.com/gin-gonic/gin`. */
    package: z.string().regex(/^(npm|PyPI|Go) \S+$/),
    /** The repository's licence (SPDX id). */
    license: z.string().min(1),
    commit: z.string().regex(/^[0-9a-f]{40}$/),
    change: z.enum(["reversed-fix", "commit"]),
    /** Published advisories the fix closes (CVE, GHSA or GHSL ids). */
    advisories: z.array(z.string().regex(ADVISORY)).default([]),
    /** Where the fix is described when no advisory was published, e.g. `gin-gonic/gin#2674`. */
    reference: z.string().min(1).optional(),
    /** The files of the commit the case keeps (the source files; tests and notes are left out). */
    paths: z.array(z.string().min(1)).min(1),
    /** Why this commit, under the rules in the corpus README. */
    chosen: z.string().min(1),
  })
  .refine((source) => source.change === "commit" || source.advisories.length > 0 || source.reference, {
    message: "A reversed fix names its advisory or, without one, a reference.",
  });
export type RealWorldSource = z.infer<typeof realWorldSourceSchema>;

export class SourceUnavailableError extends Error {}

/** The git directory of `repository` under `sources`, or null when there is none. */
export function gitDirOf(sources: string, repository: string): string | null {
  const name = repository.replace("/", "+");
  const candidates = [
    path.join(sources, name, "repo"),
    path.join(sources, `${name}.git`),
    path.join(sources, name),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, "HEAD"))) ?? null;
}

function git(gitDir: string, args: readonly string[]): string {
  return execFileSync("git", ["--git-dir", gitDir, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The base and head revisions of a case: the pull request goes from base to head. */
export function revisionsOf(source: RealWorldSource): { base: string; head: string } {
  return source.change === "reversed-fix"
    ? { base: source.commit, head: `${source.commit}^1` }
    : { base: `${source.commit}^1`, head: source.commit };
}

/** The case's files at base (path → text) and the diff from base to head. */
export function materialise(
  source: RealWorldSource,
  sources: string | undefined,
): { base: Map<string, string>; patch: string } {
  if (!sources) throw new SourceUnavailableError("QUALITY_SOURCES is not set");
  const gitDir = gitDirOf(sources, source.repository);
  if (!gitDir) throw new SourceUnavailableError(`no clone of ${source.repository} in ${sources}`);
  try {
    git(gitDir, ["cat-file", "-e", `${source.commit}^{commit}`]);
  } catch {
    throw new SourceUnavailableError(`${source.repository} has no commit ${source.commit}`);
  }
  const { base: baseRev, head: headRev } = revisionsOf(source);
  const base = new Map<string, string>();
  const present = new Set(
    git(gitDir, ["ls-tree", "-r", "--name-only", baseRev, "--", ...source.paths])
      .split("\n")
      .filter(Boolean),
  );
  for (const file of source.paths) {
    if (present.has(file)) base.set(file, git(gitDir, ["show", `${baseRev}:${file}`]));
  }
  const patch = git(gitDir, [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "-U3",
    baseRev,
    headRev,
    "--",
    ...source.paths,
  ]);
  if (!patch.trim())
    throw new Error(`${source.repository}@${source.commit}: no change in ${source.paths.join(", ")}`);
  return { base, patch };
}

/** The text of `file` at the head revision of a case, to check the applied patch against. */
export function headFile(source: RealWorldSource, sources: string, file: string): string | null {
  const gitDir = gitDirOf(sources, source.repository);
  if (!gitDir) return null;
  try {
    return git(gitDir, ["show", `${revisionsOf(source).head}:${file}`]);
  } catch {
    return null;
  }
}
