/**
 * secretlint with its recommended preset over every file of the cases, one process for all of them.
 * Its JSON goes to a file (`--output`): piped output is cut at 64 KiB. Every rule finds a secret, so
 * every rule maps to security.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { byCase, type Peer, type PeerCaseResult } from "./peer.ts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

interface SecretlintFile {
  filePath: string;
  messages: { ruleId: string; loc: { start: { line: number } } }[];
}

/** secretlint's JSON report (absolute paths under `root`) as each case's result. */
export function parseSecretlintReport(json: string, root: string, ids: readonly string[]) {
  const files = JSON.parse(json) as SecretlintFile[];
  const grouped = byCase(
    ids,
    files.flatMap((file) =>
      file.messages.map((message) => ({
        scratchPath: path.relative(root, file.filePath),
        line: message.loc.start.line,
        ruleId: message.ruleId,
        category: "security" as const,
      })),
    ),
  );
  return new Map(
    ids.map((id): [string, PeerCaseResult] => [id, { status: "ran", findings: grouped.get(id) ?? [] }]),
  );
}

function binary(): string | null {
  try {
    return path.join(path.dirname(require.resolve("secretlint/package.json")), "bin", "secretlint.js");
  } catch {
    return null;
  }
}

export const secretlint: Peer = {
  name: "secretlint",
  languages: ["ts", "js", "py", "go"],
  async version() {
    if (!binary()) return null;
    const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
    return `secretlint ${version("secretlint")}, preset-recommend ${version("@secretlint/secretlint-rule-preset-recommend")}`;
  },
  async run(root, cases) {
    const bin = binary();
    if (!bin) throw new Error("secretlint is not installed");
    const work = await mkdtemp(path.join(os.tmpdir(), "quality-secretlint-"));
    try {
      const config = path.join(work, "secretlintrc.json");
      const output = path.join(work, "report.json");
      await writeFile(
        config,
        JSON.stringify({ rules: [{ id: "@secretlint/secretlint-rule-preset-recommend" }] }),
      );
      // It exits 1 when it finds a secret; the report is in the output file either way.
      await run(
        process.execPath,
        [
          bin,
          "--secretlintrc",
          config,
          "--format",
          "json",
          "--output",
          output,
          "--no-gitignore",
          `${root}/**/*`,
        ],
        { cwd: path.join(import.meta.dirname, "..", "..", ".."), maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { code?: number }) => {
        if (error.code !== 1) throw error;
      });
      return parseSecretlintReport(
        await readFile(output, "utf8"),
        root,
        cases.map((each) => each.id),
      );
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
