/**
 * ESLint with eslint-plugin-security and eslint-plugin-no-unsanitized over the JavaScript and
 * TypeScript files of the cases, in a process of its own (eslint-runner.ts says how files are
 * parsed). Both plugins are security rule sets, so every rule of theirs maps to security; a file
 * that does not parse makes its case "not run".
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import type { FindingCategory } from "../../../shared/contract/reviews.ts";
import type { CorpusCase } from "../corpus.ts";
import { byCase, type Peer, type PeerCaseResult, splitScratchPath } from "./peer.ts";

const run = promisify(execFile);
const RUNNER = path.join(import.meta.dirname, "eslint-runner.ts");
export const SCRIPT_FILE = /\.(js|mjs|cjs|jsx|ts|mts|cts)$/;

export function eslintCategory(ruleId: string): FindingCategory | null {
  return /^(security|no-unsanitized)\//.test(ruleId) ? "security" : null;
}

/** One file as eslint-runner.ts reports it. */
export type RunnerFile =
  | { file: string; parsedAs: string; messages: { ruleId: string | null; line: number; fatal?: boolean }[] }
  | { file: string; parsedAs: null; error: string };

export function parseEslintOutput(json: string, ids: readonly string[]): Map<string, PeerCaseResult> {
  const files = JSON.parse(json) as RunnerFile[];
  const failed = new Map<string, string>();
  const found = [];
  for (const file of files) {
    if (file.parsedAs === null) {
      const where = splitScratchPath(file.file);
      if (where && !failed.has(where.caseId)) failed.set(where.caseId, `${where.path}: ${file.error}`);
      continue;
    }
    for (const message of file.messages) {
      if (!message.ruleId) continue;
      found.push({
        scratchPath: file.file,
        line: message.line,
        ruleId: message.ruleId,
        category: eslintCategory(message.ruleId),
      });
    }
  }
  const grouped = byCase(ids, found);
  return new Map(
    ids.map((id): [string, PeerCaseResult] => {
      const reason = failed.get(id);
      return reason
        ? [id, { status: "not run", reason }]
        : [id, { status: "ran", findings: grouped.get(id) ?? [] }];
    }),
  );
}

function scriptFiles(cases: readonly CorpusCase[]): string[] {
  return cases.flatMap((each) =>
    [...each.head.keys()].filter((file) => SCRIPT_FILE.test(file)).map((file) => `${each.id}/${file}`),
  );
}

export const eslint: Peer = {
  name: "ESLint + security, no-unsanitized",
  languages: ["ts", "js"],
  async version() {
    try {
      const require = createRequire(import.meta.url);
      const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
      return `eslint ${version("eslint")}, eslint-plugin-security ${version("eslint-plugin-security")}, eslint-plugin-no-unsanitized ${version("eslint-plugin-no-unsanitized")}`;
    } catch {
      return null;
    }
  },
  async run(root, cases) {
    const child = run(process.execPath, ["--no-warnings", RUNNER], { maxBuffer: 64 * 1024 * 1024 });
    child.child.stdin?.end(JSON.stringify({ root, files: scriptFiles(cases) }));
    const { stdout } = await child;
    return parseEslintOutput(
      stdout,
      cases.map((each) => each.id),
    );
  },
};
