/**
 * The diff stage's model: changed files with their hunks, every line numbered on the side(s) it
 * exists on. Two inputs, one result:
 * - `fromPullRequestFiles`: GitHub's "list pull request files" answer, whose per-file `patch` is
 *   hunks without file headers (absent for binary files and files too large for GitHub to diff);
 * - `fromUnifiedDiff`: a whole `git diff` text, as Azure DevOps or the sandbox produce.
 * Fetching the files belongs to the code-host adapters; this module only reads what they fetched.
 */
import parseDiff from "parse-diff";

export type FileStatus = "added" | "modified" | "removed" | "renamed";

export interface DiffLine {
  kind: "add" | "del" | "context";
  /** The line without its diff prefix or carriage return. */
  text: string;
  /** 1-based line number on the left (base) side; null for an added line. */
  oldLine: number | null;
  /** 1-based line number on the right (head) side; null for a removed line. */
  newLine: number | null;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  /** The path before a rename. */
  previousPath?: string;
  status: FileStatus;
  additions: number;
  deletions: number;
  hunks: Hunk[];
  /** Size in bytes of the file's changed text (its patch); what the per-file size cap measures. */
  patchBytes: number;
  /**
   * The whole file at head when the adapter fetched it. Analyzers that need context (Biome, new
   * dependencies) use it; without it they work from the hunks alone.
   */
  content?: string;
}

/** One entry of GitHub's "list pull request files" answer, in its field names. */
export interface PullRequestFile {
  filename: string;
  previous_filename?: string;
  status: FileStatus | "copied" | "changed" | "unchanged";
  additions: number;
  deletions: number;
  patch?: string;
}

function numberHunks(chunks: parseDiff.Chunk[]): Hunk[] {
  return chunks.map((chunk) => {
    let oldLine = chunk.oldStart;
    let newLine = chunk.newStart;
    const lines: DiffLine[] = [];
    for (const change of chunk.changes) {
      // "\ No newline at end of file" describes the line before it; it is not a line of the file.
      if (change.content.startsWith("\\")) continue;
      const text = change.content.slice(1).replace(/\r$/, "");
      if (change.type === "add") lines.push({ kind: "add", text, oldLine: null, newLine: newLine++ });
      else if (change.type === "del") lines.push({ kind: "del", text, oldLine: oldLine++, newLine: null });
      else lines.push({ kind: "context", text, oldLine: oldLine++, newLine: newLine++ });
    }
    return {
      oldStart: chunk.oldStart,
      oldLines: chunk.oldLines,
      newStart: chunk.newStart,
      newLines: chunk.newLines,
      lines,
    };
  });
}

/** GitHub's "copied" and "changed" (mode only) are modifications of the path at head. */
function normaliseStatus(status: PullRequestFile["status"]): FileStatus {
  return status === "added" || status === "removed" || status === "renamed" ? status : "modified";
}

export function fromPullRequestFiles(files: readonly PullRequestFile[]): DiffFile[] {
  return files
    .filter((file) => file.status !== "unchanged")
    .map((file) => {
      const patch = file.patch ?? "";
      const hunks = patch ? numberHunks(parseDiff(patch).flatMap((parsed) => parsed.chunks)) : [];
      return {
        path: file.filename,
        ...(file.previous_filename ? { previousPath: file.previous_filename } : {}),
        status: normaliseStatus(file.status),
        additions: file.additions,
        deletions: file.deletions,
        hunks,
        patchBytes: Buffer.byteLength(patch),
      };
    });
}

function statusOf(file: parseDiff.File): FileStatus {
  if (file.new || file.from === "/dev/null") return "added";
  if (file.deleted || file.to === "/dev/null") return "removed";
  if (file.from && file.to && file.from !== file.to) return "renamed";
  return "modified";
}

function patchBytesOf(hunks: readonly Hunk[]): number {
  // Each line costs its text, its one-character prefix and its newline.
  return hunks.reduce(
    (sum, hunk) => sum + hunk.lines.reduce((total, line) => total + Buffer.byteLength(line.text) + 2, 0),
    0,
  );
}

export function fromUnifiedDiff(text: string): DiffFile[] {
  return parseDiff(text).map((file) => {
    const status = statusOf(file);
    const path = (status === "removed" ? file.from : file.to) ?? file.from ?? "";
    const hunks = numberHunks(file.chunks);
    return {
      path,
      ...(status === "renamed" && file.from ? { previousPath: file.from } : {}),
      status,
      additions: file.additions,
      deletions: file.deletions,
      hunks,
      patchBytes: patchBytesOf(hunks),
    };
  });
}

/** An added line of a file, with its right-side number. */
export interface AddedLine {
  line: number;
  text: string;
}

export function addedLines(file: DiffFile): AddedLine[] {
  return file.hunks.flatMap((hunk) =>
    hunk.lines.flatMap((line) =>
      line.kind === "add" && line.newLine !== null ? [{ line: line.newLine, text: line.text }] : [],
    ),
  );
}

/**
 * The right-side lines the diff shows (added and context), by path: what a review comment may be
 * anchored to (GitHub refuses others with 422), and their text for quotes and fingerprints.
 */
export class RightSideIndex {
  readonly #lines = new Map<string, Map<number, string>>();

  constructor(files: readonly DiffFile[]) {
    for (const file of files) {
      const lines = new Map<number, string>();
      for (const hunk of file.hunks) {
        for (const line of hunk.lines) if (line.newLine !== null) lines.set(line.newLine, line.text);
      }
      this.#lines.set(file.path, lines);
    }
  }

  has(path: string, line: number): boolean {
    return this.#lines.get(path)?.has(line) ?? false;
  }

  /** The text of right-side line `line` of `path`, or undefined when the diff does not show it. */
  text(path: string, line: number): string | undefined {
    return this.#lines.get(path)?.get(line);
  }
}
