/**
 * A repository's own rules (docs/decisions/033): `.argus/rules/*.yml` (the folder follows the
 * product name, as `.argus.yaml` does), in ast-grep's rule YAML, read from the pull request's base
 * commit and never from its head, so a change cannot switch off or rewrite the rules that would
 * catch it. Each file is loaded by the same loader as the built-in families; a file or rule that
 * does not load is named with its error and left out, and the review goes on.
 */

import type { ReviewHost } from "../../../../code-hosts/review-host.ts";
import { botHandle } from "../../../ingest/commands.ts";
import { type InvalidRule, type LoadedRule, loadRuleFile } from "./rule-config.ts";

/** Rule files read per review, at most; the others are named as left out. */
export const TEAM_RULE_FILES_MAX = 20;
/** The family of every team rule: findings are `team/<id>`. */
export const TEAM_FAMILY = "team";

/** `.argus/rules` for the product "Argus". */
export const teamRulesFolder = (productName: string) => `.${botHandle(productName)}/rules`;

export interface TeamRules {
  /** The rule files found, in order. */
  files: string[];
  rules: LoadedRule[];
  invalid: InvalidRule[];
}

const RULE_FILE = /\.ya?ml$/i;

/**
 * The team's rules at `sha` (the base). Null when the host cannot list folders. A rule id used
 * twice is refused the second time: findings and settings name rules by id.
 */
export async function readTeamRules(
  host: ReviewHost,
  sha: string,
  productName: string,
): Promise<TeamRules | null> {
  if (!host.listFiles) return null;
  const listed = (await host.listFiles(teamRulesFolder(productName), sha))
    .filter((path) => RULE_FILE.test(path))
    .sort();
  const files = listed.slice(0, TEAM_RULE_FILES_MAX);
  const result: TeamRules = {
    files,
    rules: [],
    invalid: listed.slice(TEAM_RULE_FILES_MAX).map((path) => ({
      path,
      error: `left out: more than ${TEAM_RULE_FILES_MAX} rule files`,
    })),
  };
  const texts = await Promise.all(files.map((path) => host.fileContent(path, sha)));
  const seen = new Map<string, string>();
  files.forEach((path, index) => {
    const text = texts[index];
    if (text === null || text === undefined) {
      result.invalid.push({ path, error: "could not be read (binary, or gone)" });
      return;
    }
    const loaded = loadRuleFile(text, path, TEAM_FAMILY);
    result.invalid.push(...loaded.invalid);
    for (const rule of loaded.rules) {
      const first = seen.get(rule.id);
      if (first) {
        result.invalid.push({ path, id: rule.id, error: `a rule with this id is already in ${first}` });
        continue;
      }
      seen.set(rule.id, path);
      result.rules.push(rule);
    }
  });
  result.invalid.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return result;
}
