/**
 * Which of the engine's line comments a push fixed (docs/review-engine.md, "Resolving fixed
 * findings"). A finding is known by its fingerprint: its rule, its path and the text of its line.
 * It is gone from a file when no line of the file at head has that fingerprint under that rule, so a
 * comment is resolved when its line was removed or changed, never because the line only moved.
 * Only files the push changed are read: a file it did not touch still has every line it had.
 */

import type { Db } from "../../db/database.ts";
import type { PullRequestRef } from "../queue/pull-requests.ts";
import { fingerprint } from "./findings.ts";

/** A finding a run of the pull request posted on a line. */
export interface PostedLineFinding {
  fingerprint: string;
  ruleId: string;
  path: string;
}

/**
 * The findings among `fingerprints` (those still on the pull request, read back from its markers)
 * that an earlier run of this pull request posted as a line comment.
 */
export async function postedLineFindings(
  db: Db,
  ref: PullRequestRef,
  fingerprints: readonly string[],
): Promise<PostedLineFinding[]> {
  if (fingerprints.length === 0) return [];
  const rows = await db
    .selectFrom("review_findings as posted")
    .innerJoin("review_runs as run", "run.id", "posted.run_id")
    .select(["posted.fingerprint", "posted.finding"])
    .where("run.project_id", "=", ref.projectId)
    .where("run.pull_request", "=", ref.pullRequest)
    .where("posted.delivery", "=", "inline")
    .where("posted.fingerprint", "in", [...fingerprints])
    .execute();
  const found = new Map<string, PostedLineFinding>();
  for (const row of rows) {
    if (row.finding.path === null) continue;
    found.set(row.fingerprint, {
      fingerprint: row.fingerprint,
      ruleId: row.finding.ruleId,
      path: row.finding.path,
    });
  }
  return [...found.values()];
}

/**
 * The fingerprints of `posted` whose line is in none of their file's lines at head. `textAtHead`
 * holds the files to look at (null: the file is gone at head); a finding in any other file is kept.
 */
export function fixedFingerprints(
  posted: readonly PostedLineFinding[],
  textAtHead: ReadonlyMap<string, string | null>,
): Set<string> {
  const fixed = new Set<string>();
  // Per rule and file, the fingerprints its lines would have: each file is hashed once per rule.
  const present = new Map<string, Set<string>>();
  for (const finding of posted) {
    const text = textAtHead.get(finding.path);
    if (text === undefined) continue;
    const key = `${finding.ruleId}\u0000${finding.path}`;
    let lines = present.get(key);
    if (!lines) {
      const atHead = text === null ? [] : text.split(/\r?\n/);
      lines = new Set(atHead.map((line) => fingerprint(finding.ruleId, finding.path, line)));
      present.set(key, lines);
    }
    if (!lines.has(finding.fingerprint)) fixed.add(finding.fingerprint);
  }
  return fixed;
}
