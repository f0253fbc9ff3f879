/**
 * The rule engine as an analyzer of the built-in reviewer (backend/review/reviewers/builtin/rules/, docs/decisions/033):
 * the built-in families the repository has on and its team rules, on the changed files. What ran and
 * what failed is kept in `report` for the run's decision log.
 */

import type { Analyzer } from "./analyzer.ts";
import { type RuleFailure, runRules } from "./rules/engine.ts";
import type { LoadedRule } from "./rules/rule-config.ts";

export interface RuleReport {
  /** Rules that threw on a file: their findings there are lost, the others' are kept. */
  failures: RuleFailure[];
  /** Modified files parsed from their hunks alone (no content at head). */
  fromHunks: string[];
}

export function rulesAnalyzer(rules: readonly LoadedRule[], report: RuleReport): Analyzer {
  return {
    name: "rules",
    run({ files, related }) {
      const run = runRules(files, rules, related);
      report.failures.push(...run.failures);
      report.fromHunks.push(...run.fromHunks);
      return run.findings;
    },
  };
}
