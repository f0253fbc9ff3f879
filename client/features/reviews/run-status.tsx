/** How the review screens name a run's status, trigger, times and a finding's severity. */
import { CircleCheck, CircleDashed, CircleSlash, CircleX, Clock, LoaderCircle } from "lucide-react";
import type { FindingSeverity, ReviewRunSummary } from "../../../shared/contract/reviews.ts";
import { Badge } from "../../components/ui";
import { formatCount } from "../../lib/formats.ts";

type Status = ReviewRunSummary["status"];

const STATUS: Record<
  Status,
  { label: string; tone: "neutral" | "accent" | "success" | "warning" | "danger" }
> = {
  queued: { label: "Queued", tone: "neutral" },
  running: { label: "Running", tone: "accent" },
  succeeded: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  skipped: { label: "Skipped", tone: "warning" },
};

/** Every status with its name, in the order a run goes through them: the /reviews filter's options. */
export const STATUS_OPTIONS = (Object.keys(STATUS) as Status[]).map((value) => ({
  value,
  label: STATUS[value].label,
}));

const STATUS_ICONS: Record<Status, typeof Clock> = {
  queued: Clock,
  running: LoaderCircle,
  succeeded: CircleCheck,
  failed: CircleX,
  skipped: CircleSlash,
};

/** A run still to finish: the screens keep it fresh until it does. */
export const isUnderWay = (status: Status) => status === "queued" || status === "running";

export function RunStatusBadge({ status }: { status: Status }) {
  const Icon = STATUS_ICONS[status];
  return (
    <Badge tone={STATUS[status].tone} icon={<Icon aria-hidden="true" />}>
      {STATUS[status].label}
    </Badge>
  );
}

export const TRIGGER_LABELS: Record<ReviewRunSummary["trigger"], string> = {
  opened: "Opened",
  reopened: "Reopened",
  ready_for_review: "Ready for review",
  synchronize: "New commits",
  command: "Command",
};

export function triggerText(run: Pick<ReviewRunSummary, "trigger" | "command">): string {
  return run.trigger === "command" && run.command ? `Command: ${run.command}` : TRIGGER_LABELS[run.trigger];
}

export function durationText(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return seconds < 60
    ? `${seconds.toFixed(1)} s`
    : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** "2 of 3 posted", "none", or "—" while the run has not counted. */
export function findingsText(run: Pick<ReviewRunSummary, "findingsTotal" | "findingsPosted">): string {
  if (run.findingsTotal === null) return "—";
  if (run.findingsTotal === 0) return "None";
  return `${formatCount(run.findingsTotal)} (${formatCount(run.findingsPosted ?? 0)} posted)`;
}

export const SEVERITY_TONES: Record<FindingSeverity, "danger" | "warning" | "accent" | "neutral"> = {
  critical: "danger",
  major: "warning",
  minor: "accent",
  info: "neutral",
};

export function SeverityBadge({ severity }: { severity: FindingSeverity }) {
  return (
    <Badge tone={SEVERITY_TONES[severity]} icon={<CircleDashed aria-hidden="true" />}>
      {severity[0]?.toUpperCase()}
      {severity.slice(1)}
    </Badge>
  );
}
