/**
 * Line rules that need no parser: merge conflict markers, `debugger` statements, focused tests,
 * newly added `@ts-ignore` and lint-disable comments. Each looks at added lines only. A committed
 * conflict is one finding at its `<<<<<<<` line, not one per marker: three comments on one
 * conflict are the kind of noise that makes a team mute a reviewer. Biome's
 * counterparts (noDebugger, noFocusedTests, noTsIgnore) are off in biome.ts so a line gets one
 * finding, and these also cover files Biome does not read.
 */
import type { Finding, FindingCategory, FindingSeverity } from "../../../../shared/contract/reviews.ts";
import { type AddedLine, addedLines, type DiffFile } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import { type Analyzer, extensionOf, SCRIPT_EXTENSIONS } from "./analyzer.ts";

interface LineRule {
  ruleId: string;
  severity: FindingSeverity;
  category: FindingCategory;
  appliesTo(path: string): boolean;
  matches(text: string, path: string): boolean;
  message: string;
  fix: string;
}

/** Setext headings in these files are underlined with `=======`, which is not a conflict marker. */
const MARKUP_EXTENSIONS: ReadonlySet<string> = new Set(["md", "markdown", "rst", "adoc", "txt"]);
const TEST_FILE = /(^|\/)(__tests__|tests?|spec|e2e)\/|[._-](test|spec|e2e)\.[cm]?[jt]sx?$/;
const LINE_COMMENT = /^\s*(\/\/|\/\*|\*|#)/;

const isScript = (path: string) => SCRIPT_EXTENSIONS.has(extensionOf(path));

const CONFLICT = {
  ruleId: "markers/conflict",
  severity: "major",
  category: "correctness",
  fix: "Resolve the conflict and remove the markers.",
} as const;

type ConflictMarker = "open" | "base" | "separator" | "close";

function conflictMarkerOf(text: string, path: string): ConflictMarker | null {
  if (/^<{7}( |$)/.test(text)) return "open";
  if (/^\|{7}( |$)/.test(text)) return "base";
  if (/^>{7}( |$)/.test(text)) return "close";
  if (text === "=======" && !MARKUP_EXTENSIONS.has(extensionOf(path))) return "separator";
  return null;
}

/**
 * One finding per conflict block the change adds (`<<<<<<<` to its `>>>>>>>`), at the opening
 * line; a marker outside any added block (a stray `=======`, or a block left unclosed) is a
 * finding of its own.
 */
function conflictFindings(file: DiffFile): Finding[] {
  const findings: Finding[] = [];
  const report = (at: AddedLine, message: string) =>
    findings.push(createFinding({ ...CONFLICT, path: file.path, at, message }));
  const reportMarker = (at: AddedLine) =>
    report(
      at,
      "Merge conflict marker: the conflict was committed unresolved, so this file no longer builds " +
        "or parses as intended.",
    );
  let open: AddedLine | null = null;
  for (const added of addedLines(file)) {
    const marker = conflictMarkerOf(added.text, file.path);
    if (marker === "open") {
      if (open) reportMarker(open);
      open = added;
    } else if (marker === "close" && open) {
      report(
        open,
        `Merge conflict committed unresolved (lines ${open.line}–${added.line}): both sides and ` +
          "their markers are in the file, so it no longer builds or parses as intended.",
      );
      open = null;
    } else if (marker && !open) {
      reportMarker(added);
    }
  }
  if (open) reportMarker(open);
  return findings;
}

export const LINE_RULES: readonly LineRule[] = [
  {
    ruleId: "markers/debugger",
    severity: "major",
    category: "hygiene",
    appliesTo: isScript,
    matches: (text) => !LINE_COMMENT.test(text) && /(^|[\s;{}])debugger\s*(;|$|\s*\/\/)/.test(text),
    message: "`debugger` statement: with developer tools open it pauses every user at this line.",
    fix: "Remove it before merging.",
  },
  {
    ruleId: "markers/focused-test",
    severity: "major",
    category: "hygiene",
    appliesTo: (path) => isScript(path) && TEST_FILE.test(path),
    matches: (text) =>
      !LINE_COMMENT.test(text) &&
      (/\b(describe|it|test|context|suite|bench)\.only\s*\(/.test(text) ||
        /(^|[^\w.])f(describe|it)\s*\(/.test(text)),
    message:
      "Focused test (`.only`): the runner skips every other test in the file, so CI passes without " +
      "running them.",
    fix: "Remove `.only` before merging.",
  },
  {
    ruleId: "markers/ts-ignore",
    severity: "minor",
    category: "hygiene",
    appliesTo: isScript,
    matches: (text) => /@ts-(ignore|nocheck)\b/.test(text),
    message: "New `@ts-ignore`: it silences every type error on the next line, including future ones.",
    fix: "Fix the type, or use `@ts-expect-error` with a reason so it fails once it is no longer needed.",
  },
  {
    ruleId: "markers/lint-disable",
    severity: "minor",
    category: "hygiene",
    appliesTo: () => true,
    matches: (text) =>
      /\b(eslint-disable|oxlint-disable|tslint:disable|biome-ignore|stylelint-disable|pylint:\s*disable|rubocop:disable)\b|#\s*noqa\b|\/\/\s*nolint\b/.test(
        text,
      ),
    message:
      "New lint suppression: it hides the rule's finding here and anything similar added to this scope " +
      "later.",
    fix: "Prefer fixing the code; if the suppression must stay, say why in the comment.",
  },
];

export const markersAnalyzer: Analyzer = {
  name: "markers",
  run({ files }) {
    return files.flatMap((file) => {
      const rules = LINE_RULES.filter((rule) => rule.appliesTo(file.path));
      return conflictFindings(file).concat(
        addedLines(file).flatMap((added) =>
          rules
            .filter((rule) => rule.matches(added.text, file.path))
            .map((rule) =>
              createFinding({
                ruleId: rule.ruleId,
                severity: rule.severity,
                category: rule.category,
                path: file.path,
                at: added,
                message: rule.message,
                fix: rule.fix,
              }),
            ),
        ),
      );
    });
  },
};
