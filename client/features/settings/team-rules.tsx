/**
 * A repository's own rules (docs/product.md#settings, docs/decisions/033): the `.argus/rules/*.yml`
 * its latest review read from the pull request's base commit, each rule that loaded and each file or
 * rule that did not, with why. Shown under the built-in rule families' switches.
 */
import type { TeamRules } from "../../../shared/contract/settings.ts";
import { Badge } from "../../components/ui";
import { formatDateTime } from "../../lib/formats";

export const TEAM_RULES_TEXT = {
  title: "Team rules",
  organization:
    "A repository's own rules, in .argus/rules/*.yml on its base branch, run beside these families; each repository's settings list them.",
  notRead:
    "No review has read this repository's rules yet. Each review reads .argus/rules/*.yml from the pull request's base branch (never from the pull request itself) and lists them here.",
  none: (folder: string) => `No rule files in ${folder}.`,
  read: (folder: string, sha: string, at: string) =>
    `Read from ${folder} at ${sha.slice(0, 7)} by the latest review, ${formatDateTime(at)}.`,
  notLoaded: "Not loaded",
} as const;

export function TeamRulesList({ teamRules }: { teamRules: TeamRules | null | undefined }) {
  return (
    <section aria-labelledby="team-rules-title" className="space-y-2">
      <h3 id="team-rules-title" className="font-medium text-fg text-sm">
        {TEAM_RULES_TEXT.title}
      </h3>
      {teamRules === undefined ? (
        <p className="text-fg-muted text-sm">{TEAM_RULES_TEXT.organization}</p>
      ) : teamRules === null ? (
        <p className="text-fg-muted text-sm">{TEAM_RULES_TEXT.notRead}</p>
      ) : (
        <>
          <p className="text-fg-muted text-sm">
            {TEAM_RULES_TEXT.read(teamRules.folder, teamRules.baseSha, teamRules.readAt)}
          </p>
          {teamRules.rules.length === 0 && teamRules.invalid.length === 0 ? (
            <p className="text-fg-muted text-sm">{TEAM_RULES_TEXT.none(teamRules.folder)}</p>
          ) : (
            <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
              {teamRules.rules.map((rule) => (
                <li key={`${rule.path}\u0000${rule.id}`} className="space-y-1 px-5 py-3 text-sm">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium font-mono text-fg">{rule.id}</span>
                    <span className="text-fg-muted text-xs">
                      {[rule.language, rule.severity, rule.category, rule.cwe].filter(Boolean).join(" · ")}
                    </span>
                  </p>
                  <p className="text-fg">{rule.message}</p>
                  <p className="font-mono text-fg-subtle text-xs">{rule.path}</p>
                </li>
              ))}
              {teamRules.invalid.map((entry) => (
                <li key={`${entry.path}\u0000${entry.id ?? ""}`} className="space-y-1 px-5 py-3 text-sm">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium font-mono text-fg">{entry.id ?? entry.path}</span>
                    <Badge tone="danger">{TEAM_RULES_TEXT.notLoaded}</Badge>
                  </p>
                  <p className="text-danger-text">{entry.error}</p>
                  <p className="font-mono text-fg-subtle text-xs">{entry.path}</p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
