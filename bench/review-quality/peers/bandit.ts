/**
 * Debian's bandit (Python 3 only) over the Python files of the cases, one process for all of them:
 * `bandit -r . -f json -q`, run in the scratch folder. A file bandit cannot parse (Python 2, say)
 * makes its case "not run". Every bandit test is a security check except the three below, which are
 * about style and map to no defect category.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { FindingCategory } from "../../../shared/contract/reviews.ts";
import { byCase, type Peer, type PeerCaseResult, splitScratchPath } from "./peer.ts";

const run = promisify(execFile);

/** assert_used, try_except_pass, try_except_continue: code hygiene, not a defect of any category. */
const HYGIENE_TESTS = new Set(["B101", "B110", "B112"]);

export function banditCategory(testId: string): FindingCategory | null {
  return HYGIENE_TESTS.has(testId) ? null : "security";
}

interface BanditReport {
  errors: { filename: string; reason: string }[];
  results: { filename: string; line_number: number; test_id: string }[];
}

/** Bandit's JSON report, paths relative to the scratch folder, as each case's result. */
export function parseBanditReport(json: string, ids: readonly string[]): Map<string, PeerCaseResult> {
  const report = JSON.parse(json) as BanditReport;
  const grouped = byCase(
    ids,
    report.results.map((result) => ({
      scratchPath: result.filename,
      line: result.line_number,
      ruleId: result.test_id,
      category: banditCategory(result.test_id),
    })),
  );
  const failed = new Map<string, string>();
  for (const error of report.errors) {
    const where = splitScratchPath(error.filename);
    if (where && !failed.has(where.caseId)) failed.set(where.caseId, `${where.path}: ${error.reason}`);
  }
  return new Map(
    ids.map((id): [string, PeerCaseResult] => {
      const reason = failed.get(id);
      return reason
        ? [id, { status: "not run", reason }]
        : [id, { status: "ran", findings: grouped.get(id) ?? [] }];
    }),
  );
}

export const bandit: Peer = {
  name: "bandit",
  languages: ["py"],
  async version() {
    try {
      const { stdout } = await run("bandit", ["--version"]);
      return stdout.split("\n")[0]?.trim() ?? "bandit";
    } catch {
      return null;
    }
  },
  async run(root, cases) {
    // bandit exits 1 when it finds something; the report is on stdout either way.
    const { stdout } = await run("bandit", ["-r", ".", "-f", "json", "-q"], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; code?: number }) => {
      if (error.code === 1 && error.stdout) return { stdout: error.stdout };
      throw error;
    });
    return parseBanditReport(
      stdout,
      cases.map((each) => each.id),
    );
  },
};
