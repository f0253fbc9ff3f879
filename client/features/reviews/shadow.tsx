/**
 * Shadow mode on the review screens (docs/review-engine.md, "Shadow mode"): a run that posted
 * nothing to the code host says so with a badge, and each of its findings says where it would have
 * gone.
 */
import { EyeOff } from "lucide-react";
import type { ReviewRunSummary, RunFinding } from "../../../shared/contract/reviews.ts";
import { Badge } from "../../components/ui";
import { RunStatusBadge } from "./run-status";

function ShadowBadge() {
  return (
    <Badge
      tone="neutral"
      icon={<EyeOff aria-hidden="true" />}
      title="Reviewed in shadow mode: nothing was posted"
    >
      Shadow
    </Badge>
  );
}

/** The run's status, with a "Shadow" badge beside it for a run in shadow mode. */
export function RunStatusBadges({ run }: { run: Pick<ReviewRunSummary, "status" | "shadow"> }) {
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      <RunStatusBadge status={run.status} />
      {run.shadow ? <ShadowBadge /> : null}
    </span>
  );
}

const DELIVERY: Record<RunFinding["delivery"], string> = {
  inline: "Posted inline",
  summary: "In the summary",
  duplicate: "Already posted",
  not_posted: "Not posted",
  shadow: "Shadow",
  suppressed: "Suppressed (marked as noise in this repository)",
};

const WOULD_HAVE_GONE: Record<NonNullable<RunFinding["shadowDelivery"]>, string> = {
  inline: "Shadow: would have been posted inline",
  summary: "Shadow: would have been in the summary",
};

/** Why a finding was not posted, in the words of the Comment Style settings that decided it. */
const NOT_POSTED_BECAUSE: Record<NonNullable<RunFinding["notPostedReason"]>, string> = {
  below_threshold: "Not posted: below the lowest severity reported",
  over_limit: "Not posted: over the most findings per review",
  repeat: "Not posted: more of the same rule in this file",
};

/** What became of a finding: for a shadow finding where it would have gone, for one not posted why. */
export function deliveryText({
  delivery,
  shadowDelivery,
  notPostedReason,
}: Pick<RunFinding, "delivery" | "shadowDelivery" | "notPostedReason">) {
  if (delivery === "shadow" && shadowDelivery) return WOULD_HAVE_GONE[shadowDelivery];
  if (delivery === "not_posted" && notPostedReason) return NOT_POSTED_BECAUSE[notPostedReason];
  return DELIVERY[delivery];
}
