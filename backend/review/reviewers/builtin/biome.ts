/**
 * Biome's recommended lint rules on JavaScript and TypeScript, through its WebAssembly build (no
 * native binary). One workspace is created on first use and reused for every file and every review.
 *
 * Biome needs the whole file to lint it: the file's content at head when the adapter fetched it,
 * or, for a new file, its patch (which is the whole file). A modified file with hunks alone is not
 * linted (the hunks cut through blocks and hide declarations, so Biome would report noise); a note
 * says so. Only diagnostics that start on an added line are kept. The repository's own Biome or
 * ESLint configuration is not read: the rules are Biome's recommended set.
 */
import { createRequire } from "node:module";
import type { Workspace } from "@biomejs/wasm-nodejs";
import type { FindingCategory, FindingSeverity } from "../../../../shared/contract/reviews.ts";
import { FINDING_MESSAGE_MAX } from "../../../../shared/contract/reviews.ts";
import { addedLines, type DiffFile } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import { type Analyzer, extensionOf, SCRIPT_EXTENSIONS } from "./analyzer.ts";

interface Linter {
  workspace: Workspace;
  projectKey: number;
}

let linter: Linter | undefined;

/**
 * Loads the WASM workspace once, on the first file it lints: the module alone holds some 130 MB,
 * which a backend that only answers pages (or reviews no JavaScript) never needs
 * (docs/performance.md, "Backend memory"). The first such review waits about two seconds for it.
 */
export function loadBiome(): Linter {
  if (linter) return linter;
  const { MemoryFileSystem, Workspace } = createRequire(import.meta.url)(
    "@biomejs/wasm-nodejs",
  ) as typeof import("@biomejs/wasm-nodejs");
  const workspace = Workspace.withFileSystem(new MemoryFileSystem());
  const { projectKey } = workspace.openProject({ path: "/", openUninitialized: true });
  workspace.updateSettings({
    projectKey,
    configuration: {
      formatter: { enabled: false },
      assist: { enabled: false },
      linter: {
        enabled: true,
        rules: {
          recommended: true,
          // markers.ts reports these for every language; one finding per line is enough.
          suspicious: { noDebugger: "off", noFocusedTests: "off", noTsIgnore: "off" },
        },
      },
    },
  });
  linter = { workspace, projectKey };
  return linter;
}

function discardBiome(): void {
  const discarded = linter;
  linter = undefined;
  try {
    discarded?.workspace.free();
  } catch {
    // Already unusable; the garbage collector takes what is left.
  }
}

/** Why a rule group matters, after Biome's own description of the problem. */
const GROUP_REASONS: Readonly<Record<string, string>> = {
  a11y: "It makes the page harder to use with a keyboard or assistive technology.",
  complexity: "Simpler code is quicker to read and to review.",
  correctness: "It is most likely a bug.",
  performance: "It costs run time or bundle size for nothing.",
  security: "It can open a security hole.",
  style: "It departs from common conventions, which slows readers down.",
  suspicious: "Code like this is often a mistake.",
};

/** The kind of flaw by Biome's group: its correctness and suspicious rules find bugs, the rest conventions. */
function categoryOf(group: string): FindingCategory {
  if (group === "security") return "security";
  return group === "correctness" || group === "suspicious" ? "correctness" : "hygiene";
}

/**
 * Rules that read ES5 code's `var` as mistakes: a `var` in a block, declared twice or used above a
 * later declaration is hoisted to its function and means what it says there. In a file that
 * declares with `var` they are noise about older code, which a review should not rewrite.
 */
const VAR_SCOPING_RULES: ReadonlySet<string> = new Set([
  "noInnerDeclarations",
  "noRedeclare",
  "noInvalidUseBeforeDeclaration",
]);

/** The weaknesses Biome's security rules are about. */
const RULE_CWE: Readonly<Record<string, string>> = {
  noDangerouslySetInnerHtml: "CWE-79",
  noGlobalEval: "CWE-95",
  noBlankTarget: "CWE-1022",
};

/** Biome's page for a rule (`noGlobalEval` → …/no-global-eval), which shows how to fix what it reports. */
const ruleDocs = (rule: string) =>
  `See Biome's page on the rule for how to fix it: https://biomejs.dev/linter/rules/${rule.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}/`;

function severityOf(group: string, biomeSeverity: string): FindingSeverity {
  if (biomeSeverity !== "error" && biomeSeverity !== "fatal") return "info";
  return group === "correctness" || group === "security" ? "major" : "minor";
}

/** The whole file at head, or undefined when only hunks of a modified file are known. */
function contentOf(file: DiffFile): string | undefined {
  if (file.content !== undefined) return file.content;
  if (file.status !== "added") return undefined;
  return file.hunks.flatMap((hunk) => hunk.lines.map((line) => line.text)).join("\n");
}

/** Biome's spans are UTF-8 byte offsets; this answers the 1-based line holding a byte offset. */
function lineAtByte(content: string): (offset: number) => number {
  const starts: number[] = [];
  let offset = 0;
  for (const text of content.split("\n")) {
    starts.push(offset);
    offset += Buffer.byteLength(text) + 1;
  }
  return (byte) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= byte) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

function lintFile(file: DiffFile, content: string) {
  const { workspace, projectKey } = loadBiome();
  const path = `/${file.path}`;
  workspace.openFile({ projectKey, path, content: { type: "fromClient", content, version: 0 } });
  try {
    return workspace.pullDiagnostics({ projectKey, path, categories: ["lint"], includeCodeFix: false })
      .diagnostics;
  } finally {
    workspace.closeFile({ projectKey, path });
  }
}

export const biomeAnalyzer: Analyzer = {
  name: "biome",
  run({ files, note }) {
    const skipped: string[] = [];
    const findings = files.flatMap((file) => {
      if (!SCRIPT_EXTENSIONS.has(extensionOf(file.path))) return [];
      const content = contentOf(file);
      if (content === undefined) {
        skipped.push(file.path);
        return [];
      }
      let diagnostics: ReturnType<typeof lintFile>;
      try {
        diagnostics = lintFile(file, content);
      } catch (error) {
        // One file Biome cannot handle costs that file only; a fresh workspace serves the next one,
        // in case the failure left this one in a bad state.
        discardBiome();
        note(
          `Biome could not lint ${file.path}: ${error instanceof Error ? error.message : String(error)}`.slice(
            0,
            300,
          ),
        );
        return [];
      }
      const added = new Map(addedLines(file).map((line) => [line.line, line]));
      const usesVar = /^\s*var\s/m.test(content);
      const lineAt = lineAtByte(content);
      return diagnostics.flatMap((diagnostic) => {
        const [, group, rule] = diagnostic.category?.split("/") ?? [];
        const span = diagnostic.location.span;
        const at = span && added.get(lineAt(span[0]));
        if (!group || !rule || !at) return [];
        if (VAR_SCOPING_RULES.has(rule) && usesVar) return [];
        const message = `${diagnostic.description} ${GROUP_REASONS[group] ?? ""} (Biome ${group}/${rule})`;
        return [
          createFinding({
            ruleId: `biome/${group}/${rule}`,
            severity: severityOf(group, diagnostic.severity),
            category: categoryOf(group),
            ...(RULE_CWE[rule] ? { cwe: RULE_CWE[rule] } : {}),
            fix: ruleDocs(rule),
            path: file.path,
            at,
            message: message.replace(/\s+/g, " ").slice(0, FINDING_MESSAGE_MAX),
          }),
        ];
      });
    });
    if (skipped.length > 0) {
      note(
        `Biome did not lint ${skipped.length} modified file(s) without their full content: ${skipped.join(", ")}.`,
      );
    }
    return findings;
  },
};
