/** The run page's AI section (docs/review-engine.md, "AI pass"): how the pass ended, model, tokens, cost. */

import type { RunAiUsage } from "../../../shared/contract/reviews.ts";
import { costText } from "../../../shared/format.ts";
import { Badge, Card, Fact } from "../../components/ui";
import { formatCount } from "../../lib/formats.ts";

const OUTCOME: Record<RunAiUsage["outcome"], { label: string; tone: "success" | "warning" | "danger" }> = {
  reviewed: { label: "Reviewed", tone: "success" },
  failed: { label: "Did not run", tone: "danger" },
  over_budget: { label: "Over the monthly budget", tone: "warning" },
  over_call_limit: { label: "Over the hourly limit", tone: "warning" },
};

export function RunAiUsageCard({ ai }: { ai: RunAiUsage }) {
  const tokens =
    ai.inputTokens === null
      ? "—"
      : `${formatCount(ai.inputTokens)} in, ${formatCount(ai.outputTokens ?? 0)} out`;
  return (
    <Card as="section" aria-labelledby="ai-review-title">
      <h2 id="ai-review-title" className="border-border border-b px-6 py-3.5 font-semibold text-fg text-sm">
        AI review
      </h2>
      <dl className="grid gap-x-6 gap-y-3 px-6 py-5 text-sm sm:grid-cols-4">
        <Fact term="Outcome">
          <Badge tone={OUTCOME[ai.outcome].tone}>{OUTCOME[ai.outcome].label}</Badge>
        </Fact>
        <Fact term="Model">
          <span className="break-all font-mono">{ai.model ?? "—"}</span>
        </Fact>
        <Fact term="Tokens">{tokens}</Fact>
        <Fact term="Cost">{ai.costMicros === null ? "Unknown" : costText(ai.costMicros)}</Fact>
        {ai.note ? (
          <Fact term="Note" className="sm:col-span-4">
            {ai.note}
          </Fact>
        ) : null}
      </dl>
    </Card>
  );
}
