/**
 * People's 👍 and 👎 on a run's findings (docs/product.md, "/reviews/:runId"): the counts of one
 * finding, and the run's totals, useful (👍) and noise (👎). Drawn as icons, not emoji, which a
 * machine without an emoji font shows as empty boxes.
 */
import { ThumbsDown, ThumbsUp } from "lucide-react";
import type { FindingFeedback, RunFinding } from "../../../shared/contract/reviews.ts";

const ICON = "inline size-3.5 align-[-2px]";

function Counts({ thumbsUp, thumbsDown }: FindingFeedback) {
  return (
    <>
      <ThumbsUp aria-hidden="true" className={ICON} /> {thumbsUp} <span className="sr-only">useful,</span>{" "}
      <ThumbsDown aria-hidden="true" className={ICON} /> {thumbsDown} <span className="sr-only">noise</span>
    </>
  );
}

/** One finding's counts, beside its delivery. */
export function FindingFeedbackCounts({ feedback }: { feedback: FindingFeedback }) {
  return (
    <span className="text-fg-muted text-xs" title="Reactions on the posted comment">
      · <Counts {...feedback} />
    </span>
  );
}

/** The run's totals over its findings. */
export function RunFeedbackTotals({ findings }: { findings: RunFinding[] }) {
  const totals = findings.reduce(
    (sum, { feedback }) => ({
      thumbsUp: sum.thumbsUp + feedback.thumbsUp,
      thumbsDown: sum.thumbsDown + feedback.thumbsDown,
    }),
    { thumbsUp: 0, thumbsDown: 0 },
  );
  return (
    <span>
      <Counts {...totals} />
    </span>
  );
}
