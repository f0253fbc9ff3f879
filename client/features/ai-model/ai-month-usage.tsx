/**
 * This month's use of the organisation's model beside its settings (docs/product.md#settingsai-model):
 * AI reviews, tokens and what they cost against the monthly budget, so a team sees how close the
 * cap is before reviews start going without the model.
 */
import { AI_MODEL, type AiMonthUsage, MICROS_PER_CENT } from "../../../shared/contract/ai-model.ts";
import { costText } from "../../../shared/format.ts";
import { Alert, Card, Fact } from "../../components/ui";
import { cn } from "../../lib/cn";
import { formatCount } from "../../lib/formats.ts";
import { formatDate, formatMoney } from "../billing/format-billing.ts";

export function AiMonthUsageCard({
  usage,
  budgetCents,
}: {
  usage: AiMonthUsage;
  budgetCents: number | null;
}) {
  const budgetMicros = budgetCents === null ? null : budgetCents * MICROS_PER_CENT;
  const reached = budgetMicros !== null && usage.costMicros >= budgetMicros;
  const share =
    budgetMicros === null ? null : budgetMicros === 0 ? 1 : Math.min(1, usage.costMicros / budgetMicros);
  // The month ends the moment before `until`; a reached budget is counted again from then.
  const lastDay = new Date(Date.parse(usage.until) - 1).toISOString();
  return (
    <Card as="section" aria-labelledby="ai-month-usage-title">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-border border-b px-6 py-3.5">
        <h3 id="ai-month-usage-title" className="font-semibold text-fg text-sm">
          {AI_MODEL.usageTitle}
        </h3>
        <p className="text-fg-muted text-xs">
          {formatDate(usage.since)} to {formatDate(lastDay)} (UTC)
        </p>
      </div>
      <div className="space-y-4 px-6 py-5">
        <dl className="grid gap-x-6 gap-y-3 text-sm tabular-nums sm:grid-cols-3">
          <Fact term={AI_MODEL.usageReviews}>{formatCount(usage.reviews)}</Fact>
          <Fact term={AI_MODEL.usageTokens}>
            {formatCount(usage.inputTokens)} in, {formatCount(usage.outputTokens)} out
          </Fact>
          <Fact term={AI_MODEL.usageSpent}>
            {costText(usage.costMicros)}{" "}
            <span className="text-fg-muted">
              {budgetCents === null ? `(${AI_MODEL.usageNoCap})` : `of ${formatMoney(budgetCents)}`}
            </span>
          </Fact>
        </dl>
        {share === null ? null : (
          // The figures above say it in words; the bar is for the eye.
          <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-surface-muted">
            <div
              className={cn("h-full rounded-full", reached ? "bg-danger" : "bg-accent")}
              style={{ width: `${Math.round(share * 1000) / 10}%` }}
            />
          </div>
        )}
        {reached ? <Alert tone="warning">{AI_MODEL.budgetReached}</Alert> : null}
        {usage.unpricedReviews > 0 ? (
          <p className="text-fg-muted text-xs">{AI_MODEL.unpricedReviews(usage.unpricedReviews)}</p>
        ) : null}
      </div>
    </Card>
  );
}
