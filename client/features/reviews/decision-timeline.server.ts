/**
 * A run's decision log as the run page's timeline (docs/product.md#reviewsrunid), worked out in the
 * loader so the page ships no word lists: each step named in words, its outcome in words with a
 * tone, how long it took (since the step before: a step is logged when it is done) and its details as text.
 * Steps and outcomes the lists do not know (a new step of the engine) are shown as they are.
 */
import type { ReviewDecision } from "../../../shared/contract/reviews.ts";

export type StepTone = "success" | "warning" | "danger" | "neutral";

export interface TimelineStep {
  /** The engine's name of the step (`triage.draft`), kept for those who read the engine's docs. */
  step: string;
  title: string;
  outcome: string;
  tone: StepTone;
  at: string;
  /**
   * Since the step before: the engine logs a step when it is done, so the time before it is the
   * time it took. Null for the first step, which nothing comes before.
   */
  durationMs: number | null;
  details: Array<{ name: string; value: string }>;
}

const STEP_TITLES: Record<string, string> = {
  event: "Event received",
  run: "Run",
  pull_request: "Pull request read",
  triage: "Check",
  "triage.state": "Check: pull request open",
  "triage.auto_review": "Check: reviews on for this trigger",
  "triage.paused": "Check: not paused",
  "triage.draft": "Check: draft",
  "triage.bot_author": "Check: bot author",
  "triage.ignored_branch": "Check: ignored branches",
  "triage.plan": "Check: plan",
  "triage.seat": "Check: author's seat",
  "triage.head": "Check: head not reviewed yet",
  "triage.ignored_paths": "Check: ignored paths",
  "triage.documentation_only": "Check: documentation only",
  "triage.project": "Check: repository active",
  "triage.command": "Command",
  "diff.range": "Diff range",
  diff: "Diff",
  "rules.team": "Team rules",
  rules: "Rule engine",
  review: "Built-in reviewer",
  "ai.reused": "AI review: earlier result",
  "ai.model": "AI model",
  "ai.file": "AI review: file",
  "ai.instructions": "AI review: instructions",
  "ai.pack": "AI review: what was sent",
  "ai.review": "AI review",
  "ai.anchor": "AI review: anchors checked",
  "ai.merge": "AI findings merged",
  ai: "AI review result",
  feedback: "Feedback read",
  "feedback.suppressed": "Findings suppressed as noise",
  post: "Posting",
  resolve: "Fixed findings' comments",
  check: "Status on the pull request",
};

const OUTCOMES: Record<string, { text: string; tone: StepTone }> = {
  queued: { text: "Queued", tone: "neutral" },
  coalesced: { text: "Joined the queued run", tone: "neutral" },
  started: { text: "Started", tone: "neutral" },
  succeeded: { text: "Succeeded", tone: "success" },
  failed: { text: "Failed", tone: "danger" },
  skipped: { text: "Skipped", tone: "warning" },
  abandoned: { text: "Abandoned: a newer run took over", tone: "warning" },
  read: { text: "Read", tone: "success" },
  pass: { text: "Passed", tone: "success" },
  skip: { text: "Not reviewed", tone: "warning" },
  none: { text: "None found", tone: "neutral" },
  unreadable: { text: "Could not be read", tone: "warning" },
  unavailable: { text: "Not available on this code host", tone: "neutral" },
  invalid: { text: "Invalid, not used", tone: "warning" },
  base: { text: "From the base branch", tone: "neutral" },
  "from base": { text: "The whole pull request", tone: "neutral" },
  incremental: { text: "Only what changed since the last review", tone: "neutral" },
  "built-in": { text: "Ran", tone: "success" },
  ran: { text: "Ran", tone: "success" },
  off: { text: "Off", tone: "neutral" },
  packed: { text: "Packed", tone: "neutral" },
  checked: { text: "Checked", tone: "neutral" },
  merged: { text: "Merged", tone: "neutral" },
  reviewed: { text: "Reviewed", tone: "success" },
  over_budget: { text: "Over the monthly budget", tone: "warning" },
  over_call_limit: { text: "Over the hourly limit", tone: "warning" },
  synced: { text: "Up to date", tone: "neutral" },
  suppressed: { text: "Suppressed", tone: "warning" },
  answered: { text: "Answered", tone: "success" },
  posted: { text: "Posted", tone: "success" },
  resolved: { text: "Resolved", tone: "success" },
  completed: { text: "Completed", tone: "success" },
  "nothing to post": { text: "Nothing to post", tone: "neutral" },
  "already posted": { text: "Already posted", tone: "neutral" },
  shadow: { text: "Shadow mode: nothing posted", tone: "neutral" },
};

/** `triage.new_check` without a title of its own: "Check: new check". */
function titleOf(step: string): string {
  const known = STEP_TITLES[step];
  if (known) return known;
  const [family = step, ...rest] = step.split(".");
  const name = rest.join(" ").replaceAll("_", " ");
  const familyTitle = STEP_TITLES[family] ?? family.replaceAll("_", " ");
  return name ? `${familyTitle}: ${name}` : familyTitle;
}

const valueText = (value: unknown): string =>
  typeof value === "string"
    ? value
    : Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null)
      ? value.join(", ")
      : JSON.stringify(value);

export function timelineOf(decisions: readonly ReviewDecision[]): TimelineStep[] {
  return decisions.map((decision, index) => {
    const since = decisions[index - 1]?.at;
    const outcome = OUTCOMES[decision.outcome];
    return {
      step: decision.step,
      title: titleOf(decision.step),
      outcome: outcome?.text ?? decision.outcome,
      tone: outcome?.tone ?? "neutral",
      at: decision.at,
      durationMs: since ? Math.max(0, Date.parse(decision.at) - Date.parse(since)) : null,
      details: Object.entries(decision.detail).map(([name, value]) => ({
        name: name.replaceAll("_", " "),
        value: valueText(value),
      })),
    };
  });
}
