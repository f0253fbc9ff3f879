/**
 * Repository hygiene: a committed `.env` file, and `pull_request_target` added to a GitHub Actions
 * workflow.
 */
import type { Finding } from "../../../../shared/contract/reviews.ts";
import { addedLines, type DiffFile } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import type { Analyzer } from "./analyzer.ts";

/** `.env`, `.env.local`, `.env.production`…, but not the templates meant to be committed. */
const ENV_FILE = /(^|\/)\.env(\.[^/]+)?$/;
const ENV_TEMPLATE = /\.(example|sample|template|dist|defaults|schema)$/i;
const WORKFLOW_FILE = /^\.github\/workflows\/[^/]+\.ya?ml$/;

function envFileFinding(file: DiffFile): Finding | null {
  if (!ENV_FILE.test(file.path) || ENV_TEMPLATE.test(file.path)) return null;
  // A whole-file finding: quoting a line of it would repeat a secret.
  return createFinding({
    ruleId: "hygiene/env-file",
    severity: "major",
    category: "security",
    cwe: "CWE-540",
    path: file.path,
    message:
      "An environment file is committed: such files hold credentials and machine-specific settings, " +
      "and everything committed stays in the history.",
    fix: "Remove it, add it to .gitignore and commit an `.env.example` without values instead.",
  });
}

function pullRequestTargetFindings(file: DiffFile): Finding[] {
  if (!WORKFLOW_FILE.test(file.path)) return [];
  return addedLines(file)
    .filter((added) => /\bpull_request_target\b/.test(added.text.replace(/#.*$/, "")))
    .map((added) =>
      createFinding({
        ruleId: "hygiene/pull-request-target",
        severity: "major",
        category: "security",
        cwe: "CWE-829",
        path: file.path,
        at: added,
        message:
          "`pull_request_target` runs with the base repository's secrets and a write token, also for " +
          "pull requests from forks. If the job checks out or runs the pull request's code, anyone " +
          "can take over the repository.",
        fix: "Use `pull_request` unless the job never checks out or runs the pull request's code.",
      }),
    );
}

export const hygieneAnalyzer: Analyzer = {
  name: "hygiene",
  run({ files }) {
    return files.flatMap((file) => {
      const envFinding = envFileFinding(file);
      return [...(envFinding ? [envFinding] : []), ...pullRequestTargetFindings(file)];
    });
  },
};
