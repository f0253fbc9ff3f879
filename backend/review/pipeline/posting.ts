/**
 * The posting stage's text and choices: which finding goes where (inline, the summary, already
 * posted, not posted), and the comment and summary bodies, each posted finding with its signed
 * hidden marker (markers.ts) so that later runs (and retries) read back what is on the pull request
 * already.
 */
import {
  cweUrl,
  FINDING_SEVERITY_ORDER,
  type Finding,
  type FindingSeverity,
} from "../../../shared/contract/reviews.ts";
import { inertMarkdown, inlineCode } from "../../../shared/inert-markdown.ts";
import type { LineComment } from "../../code-hosts/review-host.ts";
import { type FindingDelivery, isPosted, type NotPostedReason } from "../model.ts";
import type { ReviewSettings } from "../review-settings.ts";
import type { RightSideIndex } from "./diff.ts";
import type { PullRequestMarkers } from "./markers.ts";

const SEVERITY_LABEL: Record<FindingSeverity, string> = {
  critical: "Critical",
  major: "Major",
  minor: "Minor",
  info: "Info",
};

/** ` · [CWE-89](…)` after the rule id, when the finding names its weakness. */
const weakness = (finding: Finding) => (finding.cwe ? ` · [${finding.cwe}](${cweUrl(finding.cwe)})` : "");

/**
 * A finding's message, fix and path come from the pull request, a model or a team's rule file (a
 * package's name, a model's words), so they are posted inert (inert-markdown.ts); only the engine
 * writes Markdown, the CWE link and markers.
 */
export function commentBody(finding: Finding, markers: PullRequestMarkers): string {
  const fix = finding.fix ? `\n\n**Fix:** ${inertMarkdown(finding.fix)}` : "";
  return `**${SEVERITY_LABEL[finding.severity]}** · \`${finding.ruleId}\`${weakness(finding)}\n\n${inertMarkdown(finding.message)}${fix}\n\n${markers.finding(finding.fingerprint)}`;
}

const where = (finding: Pick<Finding, "path" | "line">) =>
  finding.path ? inlineCode(`${finding.path}${finding.line ? `:${finding.line}` : ""}`) : "The pull request";

function summaryLine(finding: Finding, markers: PullRequestMarkers): string {
  const fix = finding.fix ? ` Fix: ${inertMarkdown(finding.fix)}` : "";
  return `- **${SEVERITY_LABEL[finding.severity]}** ${where(finding)} \`${finding.ruleId}\`${weakness(finding)}: ${inertMarkdown(finding.message)}${fix} ${markers.finding(finding.fingerprint)}`;
}

/** A finding and where it goes; for one not posted, why. */
export interface PlannedDelivery {
  finding: Finding;
  delivery: FindingDelivery;
  notPostedReason?: NotPostedReason;
}

/** How many of the plan's findings were not posted for `reason` (the summary counts them). */
export function notPostedFor(plan: Pick<PlannedReview, "deliveries">, reason: NotPostedReason): number {
  return plan.deliveries.filter((planned) => planned.notPostedReason === reason).length;
}

export interface PlannedReview {
  /** Every finding of the run with where it goes. */
  deliveries: PlannedDelivery[];
  comments: LineComment[];
  /** Findings listed in the summary: without a line, outside the diff, or with inline comments off. */
  summaryFindings: Finding[];
  /** Findings not posted because their rule already had its comments in their file (summed up in the summary). */
  repeats: RepeatedRule[];
}

/** One rule's findings in one file beyond SAME_RULE_PER_FILE_MAX. */
export interface RepeatedRule {
  ruleId: string;
  path: string;
  count: number;
}

/**
 * Comments one rule gets in one file, at most, counting those already on the pull request. A
 * pasted block of twenty `console.log` calls is one thing to fix, not twenty: the rest are counted
 * in the summary, one line per rule and file, and do not take the places `max_findings` leaves.
 */
export const SAME_RULE_PER_FILE_MAX = 3;

const severityRank = (severity: FindingSeverity) => FINDING_SEVERITY_ORDER.indexOf(severity);

/**
 * What makes findings repeats of one another: the same rule in the same file. A finding about the
 * whole pull request repeats nothing; neither does a model's (its findings share one rule id,
 * `ai/review`, but each says something of its own) nor a critical one (each leaked key is a key to
 * revoke, each injection a hole to close).
 */
function ruleInFile(finding: Finding): string | null {
  return finding.path === null || finding.source === "ai" || finding.severity === "critical"
    ? null
    : `${finding.ruleId}\0${finding.path}`;
}

/**
 * The order findings claim the review's places in: the most severe first and, among equals, one of
 * each rule in each file before any repeat of it. Ten `debugger;` lines must not crowd out the one
 * logic flaw of the same severity when only ten findings are posted. Otherwise as found.
 */
function postingOrder(findings: readonly Finding[]): Finding[] {
  const seen = new Map<string, number>();
  const repeat = new Map<Finding, number>();
  for (const finding of findings) {
    const key = ruleInFile(finding);
    if (key === null) continue;
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    repeat.set(finding, count);
  }
  return [...findings].sort(
    (a, b) =>
      severityRank(a.severity) - severityRank(b.severity) || (repeat.get(a) ?? 0) - (repeat.get(b) ?? 0),
  );
}

/**
 * Where each finding goes, in posting order (above). Not posted: findings below the severity
 * threshold, repeats of a rule in a file beyond SAME_RULE_PER_FILE_MAX, and new ones beyond
 * `max_findings` (over the per-review limit); each recorded with its reason and counted in the
 * summary. Duplicate: a fingerprint already on the pull request (not counted towards the limit, but
 * towards its rule's in the file). Inline: a line inside the diff, with inline comments on.
 * Everything else is listed in the summary, so no finding is silently dropped.
 */
export function planReview(
  findings: readonly Finding[],
  index: RightSideIndex,
  alreadyPosted: ReadonlySet<string>,
  style: ReviewSettings["comment_style"],
  markers: PullRequestMarkers,
): PlannedReview {
  const plan: PlannedReview = {
    deliveries: [],
    comments: [],
    summaryFindings: [],
    repeats: [],
  };
  const onFile = new Map<string, number>();
  const repeats = new Map<string, RepeatedRule>();
  for (const finding of postingOrder(findings)) {
    let delivery: FindingDelivery;
    let notPostedReason: NotPostedReason | undefined;
    const sameRuleAndFile = ruleInFile(finding);
    const alreadyOnFile = sameRuleAndFile === null ? 0 : (onFile.get(sameRuleAndFile) ?? 0);
    if (severityRank(finding.severity) > severityRank(style.severity_threshold)) {
      delivery = "not_posted";
      notPostedReason = "below_threshold";
    } else if (alreadyPosted.has(finding.fingerprint)) {
      delivery = "duplicate";
    } else if (sameRuleAndFile !== null && finding.path !== null && alreadyOnFile >= SAME_RULE_PER_FILE_MAX) {
      delivery = "not_posted";
      notPostedReason = "repeat";
      const group = repeats.get(sameRuleAndFile) ?? { ruleId: finding.ruleId, path: finding.path, count: 0 };
      group.count += 1;
      repeats.set(sameRuleAndFile, group);
    } else if (plan.comments.length + plan.summaryFindings.length >= style.max_findings) {
      delivery = "not_posted";
      notPostedReason = "over_limit";
    } else if (
      style.inline_comments &&
      finding.path !== null &&
      finding.line !== null &&
      index.has(finding.path, finding.line)
    ) {
      delivery = "inline";
      plan.comments.push({
        path: finding.path,
        line: finding.line,
        body: commentBody(finding, markers),
        fingerprint: finding.fingerprint,
      });
    } else {
      delivery = "summary";
      plan.summaryFindings.push(finding);
    }
    if (sameRuleAndFile !== null && delivery !== "not_posted") onFile.set(sameRuleAndFile, alreadyOnFile + 1);
    plan.deliveries.push(notPostedReason ? { finding, delivery, notPostedReason } : { finding, delivery });
  }
  plan.repeats = [...repeats.values()];
  return plan;
}

export interface SummaryFacts {
  productName: string;
  /** The first commit reviewed from, or null for the whole pull request. */
  since: string | null;
  headSha: string;
  filesReviewed: number;
  skipped: number;
  duplicates: number;
  /** The per-review limit (`max_findings`), named when findings were over it. */
  maxFindings: number;
  /** Sections after the overview (the AI pass's), with summary_comment on. */
  sections?: string[];
}

/**
 * The review's body: an overview (with summary_comment on) and the findings that are not inline.
 * Empty when there is nothing to say.
 */
export function summaryBody(
  plan: PlannedReview,
  facts: SummaryFacts,
  withOverview: boolean,
  markers: PullRequestMarkers,
): string {
  const parts: string[] = [];
  if (withOverview) {
    const range = facts.since
      ? `the changes since ${facts.since.slice(0, 7)} up to ${facts.headSha.slice(0, 7)}`
      : `the pull request at ${facts.headSha.slice(0, 7)}`;
    const posted = plan.comments.length + plan.summaryFindings.length;
    const repeated = notPostedFor(plan, "repeat");
    const overLimit = notPostedFor(plan, "over_limit");
    const belowThreshold = notPostedFor(plan, "below_threshold");
    const counts = [
      posted === 0 ? "no new findings" : `${posted} new finding${posted === 1 ? "" : "s"}`,
      ...(facts.duplicates ? [`${facts.duplicates} already reported`] : []),
      ...(facts.skipped ? [`${facts.skipped} file${facts.skipped === 1 ? "" : "s"} skipped`] : []),
      ...(overLimit ? [`${overLimit} more over the per-review limit of ${facts.maxFindings}`] : []),
      ...(belowThreshold ? [`${belowThreshold} below the lowest severity reported`] : []),
      ...(repeated ? [`${repeated} more of a rule already commented on in the same file`] : []),
    ];
    parts.push(
      `**${facts.productName}** reviewed ${range} (${facts.filesReviewed} file${facts.filesReviewed === 1 ? "" : "s"}): ${counts.join(", ")}.`,
      ...(facts.sections ?? []),
    );
    if (plan.repeats.length) {
      parts.push(
        [
          `**More of the same** (at most ${SAME_RULE_PER_FILE_MAX} comments of a rule in a file)`,
          ...plan.repeats.map(
            (group) => `- ${inlineCode(group.ruleId)} in ${inlineCode(group.path)}: ${group.count} more`,
          ),
        ].join("\n"),
      );
    }
  }
  if (plan.summaryFindings.length) {
    parts.push(
      [
        "**Findings not on a changed line**",
        ...plan.summaryFindings.map((finding) => summaryLine(finding, markers)),
      ].join("\n"),
    );
  }
  return parts.join("\n\n");
}

/**
 * The summary with line comments the host refused (outside its diff) listed under it: code-host
 * adapters call this when they move comments, so every host words it the same way.
 */
export function summaryWithMoved(summary: string, moved: readonly LineComment[]): string {
  if (!moved.length) return summary;
  const lines = moved.map(
    (comment) => `- ${inlineCode(`${comment.path}:${comment.line}`)}: ${comment.body.replace(/\n+/g, " ")}`,
  );
  return [summary, ["**Comments outside the diff**", ...lines].join("\n")].filter(Boolean).join("\n\n");
}

/** Ask for changes when the setting says so and a critical or major finding is newly posted. */
export function asksForChanges(plan: PlannedReview, style: ReviewSettings["comment_style"]): boolean {
  return (
    style.request_changes &&
    plan.deliveries.some(
      ({ finding, delivery }) =>
        isPosted(delivery) && (finding.severity === "critical" || finding.severity === "major"),
    )
  );
}
