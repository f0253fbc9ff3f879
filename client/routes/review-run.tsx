import { ExternalLink, RotateCw, SearchX } from "lucide-react";
import { useCallback, useState } from "react";
import { href, useNavigate, useRevalidator } from "react-router";
import { Settled } from "../components/streamed";
import { BackLink, Button, Card, EmptyState, Fact, TextLink, useToast } from "../components/ui";
import { DecisionTimeline } from "../features/reviews/decision-timeline";
import type { TimelineStep } from "../features/reviews/decision-timeline.server";
import { FindingFix, FindingReference, findingPlace } from "../features/reviews/finding-details";
import { FindingFeedbackCounts, RunFeedbackTotals } from "../features/reviews/finding-feedback";
import { reviewCalls } from "../features/reviews/lazy-reviews";
import { MarkdownBody } from "../features/reviews/markdown-body";
import {
  type RenderedFinding,
  type RenderedRun,
  renderedRun,
} from "../features/reviews/rendered-reviews.server";
import { loadReviewRun } from "../features/reviews/reviews.server";
import { RunAiUsageCard } from "../features/reviews/run-ai-usage";
import {
  durationText,
  findingsText,
  isUnderWay,
  SeverityBadge,
  triggerText,
} from "../features/reviews/run-status";
import { deliveryText, RunStatusBadges } from "../features/reviews/shadow";
import { useRunEvents } from "../features/reviews/use-run-events";
import { builtInRulesHref } from "../features/settings/settings-href";
import { backendFor } from "../lib/backend.server";
import { formatCount, formatDateTime } from "../lib/formats";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/review-run";

export const handle: RouteHandle = { title: "Reviews" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Review", productNameOf(matches)) }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { run: await renderedRun(await loadReviewRun(api, params.runId)) };
}

/** docs/product.md#reviewsrunid: one run's decision log and findings. */
export default function ReviewRun({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <BackLink to={href("/reviews")}>Back to reviews</BackLink>
      <Settled
        result={loaderData.run}
        errorDescription="The review could not be fetched. Check your connection and try again."
      >
        {(run) =>
          run ? (
            <RunDetail run={run} />
          ) : (
            <EmptyState
              icon={<SearchX />}
              titleAs="h2"
              title="Review not found"
              description="There is no review run by that id in your organization."
            />
          )
        }
      </Settled>
    </div>
  );
}

function RunDetail({ run }: { run: RenderedRun }) {
  const { revalidate } = useRevalidator();
  const underWay = isUnderWay(run.status);
  // While the run is under way, each change of it reloads the page's data (its log grows).
  useRunEvents(
    useCallback((changed) => changed.id === run.id && void revalidate(), [run.id, revalidate]),
    underWay,
  );
  return (
    <>
      <Card as="section" aria-labelledby="run-title">
        <div className="flex flex-wrap items-start justify-between gap-4 border-border border-b px-6 py-5">
          <div className="min-w-0 space-y-1">
            <h2 id="run-title" className="font-semibold text-fg text-xl tracking-tight">
              {run.repository} #{run.pullRequest}
            </h2>
            {run.pullRequestTitle ? <p className="text-fg-muted text-sm">{run.pullRequestTitle}</p> : null}
            {run.pullRequestUrl ? (
              <a
                href={run.pullRequestUrl}
                className="focus-ring inline-flex items-center gap-1 rounded-sm text-accent-text text-sm hover:underline"
              >
                <ExternalLink aria-hidden="true" className="size-3.5" />
                Open the pull request
              </a>
            ) : null}
          </div>
          <ReviewAgain runId={run.id} disabled={underWay} />
        </div>
        <dl className="grid gap-x-6 gap-y-3 px-6 py-5 text-sm sm:grid-cols-3">
          <Fact term="Status">
            <RunStatusBadges run={run} />
          </Fact>
          <Fact term="Trigger">{triggerText(run)}</Fact>
          <Fact term="Duration">{durationText(run.durationMs)}</Fact>
          <Fact term="Findings">{findingsText(run)}</Fact>
          <Fact term="Feedback">
            <RunFeedbackTotals findings={run.findings} />
          </Fact>
          <Fact term="Queued">{formatDateTime(run.queuedAt)}</Fact>
          <Fact term="Head commit">
            {run.headSha && run.headCommitUrl ? (
              <a
                href={run.headCommitUrl}
                className="focus-ring rounded-sm font-mono text-accent-text hover:underline"
              >
                {run.headSha.slice(0, 12)}
              </a>
            ) : (
              <span className="font-mono">{run.headSha?.slice(0, 12) ?? "—"}</span>
            )}
          </Fact>
          {run.reason ? <Fact term="Reason">{run.reason}</Fact> : null}
        </dl>
      </Card>
      {run.ai ? <RunAiUsageCard ai={run.ai} /> : null}
      <DecisionLog steps={run.timeline} underWay={underWay} />
      <Findings findings={run.findings} found={run.findingsTotal} projectId={run.projectId} />
    </>
  );
}

/** POST retry, then the new run's page. */
function ReviewAgain({ runId, disabled }: { runId: string; disabled: boolean }) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  async function retry() {
    setBusy(true);
    const outcome = await reviewCalls
      .load()
      .then(({ retryRun }) => retryRun(runId))
      .catch(() => ({ ok: false as const, message: "The review could not be started again." }));
    setBusy(false);
    if (!outcome.ok) {
      toast({ tone: "danger", title: outcome.message });
      return;
    }
    toast({ tone: "success", title: "Review started again" });
    await navigate(href("/reviews/:runId", { runId: outcome.id }));
  }
  return (
    <Button
      variant="secondary"
      loading={busy}
      disabled={disabled}
      icon={<RotateCw aria-hidden="true" className="size-4" />}
      onPointerEnter={reviewCalls.preload}
      onFocus={reviewCalls.preload}
      onClick={retry}
    >
      Review again
    </Button>
  );
}

function DecisionLog({ steps, underWay }: { steps: TimelineStep[]; underWay: boolean }) {
  return (
    <Card as="section" aria-labelledby="decisions-title">
      <h2 id="decisions-title" className="border-border border-b px-6 py-3.5 font-semibold text-fg text-sm">
        Decision log
      </h2>
      {steps.length === 0 ? (
        <p className="px-6 py-5 text-fg-muted text-sm">
          {underWay ? "Nothing yet: the review has not started." : "This run recorded no steps."}
        </p>
      ) : (
        <DecisionTimeline steps={steps} />
      )}
    </Card>
  );
}

/** `found` counts every finding of the run; a run keeps only so many (docs/review-engine.md). */
function Findings({
  findings,
  found,
  projectId,
}: {
  findings: RenderedFinding[];
  found: number | null;
  projectId: string;
}) {
  return (
    <Card as="section" aria-labelledby="findings-title">
      <h2 id="findings-title" className="border-border border-b px-6 py-3.5 font-semibold text-fg text-sm">
        Findings
      </h2>
      {findings.length > 0 && found !== null && found > findings.length ? (
        <p className="border-border border-b px-6 py-3 text-fg-muted text-sm">
          Showing {formatCount(findings.length)} of {formatCount(found)} findings: every one posted, then the
          most severe. A review keeps no more.
        </p>
      ) : null}
      {findings.length === 0 ? (
        <p className="px-6 py-5 text-fg-muted text-sm">No findings.</p>
      ) : (
        <ul className="divide-y divide-border">
          {findings.map(({ finding, feedback, messageHtml, fixHtml, ...delivery }) => (
            <li key={finding.fingerprint} className="space-y-1.5 px-6 py-3 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <SeverityBadge severity={finding.severity} />
                <span className="font-mono text-fg">{findingPlace(finding)}</span>
                <span className="font-mono text-fg-muted text-xs">{finding.ruleId}</span>
                <FindingReference finding={finding} />
                <span className="text-fg-muted text-xs">· {deliveryText(delivery)}</span>
                {delivery.delivery === "suppressed" ? (
                  <TextLink
                    to={builtInRulesHref(projectId)}
                    className="text-xs"
                    aria-label="Manage the findings marked as noise in this repository's settings"
                  >
                    Manage
                  </TextLink>
                ) : null}
                <FindingFeedbackCounts feedback={feedback} />
              </p>
              {finding.quote ? (
                // Wrapped, not scrolled: a box that scrolls must be reachable by keyboard, and a
                // quote is a line or two that reads fine wrapped, even on a phone.
                <pre className="whitespace-pre-wrap rounded-md bg-surface-muted px-3 py-2 font-mono text-fg text-xs wrap-anywhere">
                  <code>{finding.quote}</code>
                </pre>
              ) : null}
              <MarkdownBody html={messageHtml} />
              <FindingFix html={fixHtml} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
