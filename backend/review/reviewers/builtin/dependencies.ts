/**
 * New dependencies: an entry added to `dependencies`, `devDependencies`, `peerDependencies` or
 * `optionalDependencies` of a package.json, that was not there before (a version change or a move
 * between sections is not new).
 *
 * Which section a line is in needs the lines above it. With the file's content at head (or a new
 * file, whose patch is the whole file) every line's section is known; with hunks alone only entries
 * whose section header falls inside the hunk are seen, so the pipeline should pass `content` for
 * package.json files.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import { addedLines, type DiffFile } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import type { Analyzer } from "./analyzer.ts";

const DEPENDENCY_SECTIONS: ReadonlySet<string> = new Set([
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
]);
const OBJECT_START = /^\s*"([^"]+)"\s*:\s*\{\s*$/;
const OBJECT_END = /^\s*\}\s*,?\s*$/;
const ENTRY = /^\s*"([^"]+)"\s*:\s*"([^"]*)"\s*,?\s*$/;

interface ViewLine {
  line: number;
  text: string;
}

/** Right-side lines in order, as continuous runs (a section header is only followed within a run). */
function runsOf(file: DiffFile): ViewLine[][] {
  if (file.content !== undefined) {
    return [
      file.content.split("\n").map((text, index) => ({ line: index + 1, text: text.replace(/\r$/, "") })),
    ];
  }
  return file.hunks.map((hunk) =>
    hunk.lines.flatMap((line) => (line.newLine === null ? [] : [{ line: line.newLine, text: line.text }])),
  );
}

/** Dependency name → section, for every entry line of a top-level dependency section in the runs. */
function entriesBySection(runs: readonly ViewLine[][]): Map<number, { name: string; section: string }> {
  const entries = new Map<number, { name: string; section: string }>();
  for (const run of runs) {
    // Keys of the objects we are inside of; null when the run starts inside an object we cannot see.
    const stack: (string | null)[] = [];
    for (const { line, text } of run) {
      const start = OBJECT_START.exec(text);
      if (start) {
        stack.push(start[1] ?? null);
        continue;
      }
      if (OBJECT_END.test(text)) {
        stack.pop();
        continue;
      }
      const entry = ENTRY.exec(text);
      const section = stack.at(-1);
      // Depth 1: directly inside a top-level key such as "dependencies" (the root object has no key line).
      if (entry?.[1] && section && stack.length === 1 && DEPENDENCY_SECTIONS.has(section)) {
        entries.set(line, { name: entry[1], section });
      }
    }
  }
  return entries;
}

function newDependencyFindings(file: DiffFile): Finding[] {
  if (!/(^|\/)package\.json$/.test(file.path)) return [];
  const entries = entriesBySection(runsOf(file));
  const removedNames = new Set(
    file.hunks.flatMap((hunk) =>
      hunk.lines.flatMap((line) => {
        const name = line.kind === "del" ? ENTRY.exec(line.text)?.[1] : undefined;
        return name ? [name] : [];
      }),
    ),
  );
  return addedLines(file).flatMap((added) => {
    const entry = entries.get(added.line);
    if (!entry || removedNames.has(entry.name)) return [];
    return [
      createFinding({
        ruleId: "dependencies/new",
        severity: "info",
        category: "hygiene",
        path: file.path,
        at: added,
        message:
          `New ${entry.section === "dependencies" ? "dependency" : `entry in ${entry.section}`}: ` +
          `\`${entry.name}\`. Every dependency is code the project runs and must keep patched.`,
        fix: "Check its maintenance, licence and size, and that nothing already used does the job.",
      }),
    ];
  });
}

export const dependenciesAnalyzer: Analyzer = {
  name: "dependencies",
  run({ files }) {
    return files.flatMap(newDependencyFindings);
  },
};
