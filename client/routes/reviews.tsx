import { MessageSquareCode, Radio, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import type { ReviewRunSummary } from "../../shared/review-contract.ts";
import { RepositoryName } from "../components/projects/repository-name";
import { durationText, findingsText, triggerText, whenText } from "../components/reviews/run-status";
import { RunStatusBadges } from "../components/reviews/shadow";
import { useRunEvents } from "../components/reviews/use-run-events";
import { Settled } from "../components/streamed";
import { ButtonLink, EmptyState, ScrollRegion } from "../components/ui";
import { backendFor } from "../lib/backend.server";
import { cn } from "../lib/cn";
import { loadReviewRuns } from "../lib/reviews.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/reviews";

export const handle: RouteHandle = { title: "Reviews" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Reviews", productNameOf(matches)) }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { runs: await loadReviewRuns(api) };
}

/** docs/product.md#reviews: every review run of the organisation, newest first, kept live. */
export default function Reviews({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="reviews-title" className="space-y-4">
      <div className="space-y-1">
        <h2 id="reviews-title" className="font-semibold text-2xl text-fg tracking-tight">
          Reviews
        </h2>
        <p className="text-fg-muted text-sm">
          Every review of a pull request: what started it, how it went and what it found.
        </p>
      </div>
      <Settled
        result={loaderData.runs}
        errorDescription="The reviews could not be fetched. Check your connection and try again."
      >
        {(runs) => <LiveRuns initial={runs} />}
      </Settled>
    </section>
  );
}

/** The columns a phone leaves out; a run's own page shows them (docs/decisions/037-narrow-screens.md). */
const WIDE_SCREENS_ONLY = "hidden sm:table-cell";

/** Puts a changed run in its place: updated where it is, a new one on top. */
function merged(runs: readonly ReviewRunSummary[], run: ReviewRunSummary): ReviewRunSummary[] {
  return runs.some((candidate) => candidate.id === run.id)
    ? runs.map((candidate) => (candidate.id === run.id ? run : candidate))
    : [run, ...runs];
}

function LiveRuns({ initial }: { initial: ReviewRunSummary[] }) {
  const [runs, setRuns] = useState(initial);
  // Reloaded data (the fallback, or a navigation back here) replaces what the stream merged.
  useEffect(() => setRuns(initial), [initial]);
  const mode = useRunEvents(useCallback((run: ReviewRunSummary) => setRuns((list) => merged(list, run)), []));

  if (runs.length === 0) {
    return (
      <EmptyState
        icon={<MessageSquareCode />}
        title="No reviews yet"
        description="A review starts when a pull request is opened or updated in a connected repository. With the sandbox code host, open one from a repository's card on Home."
        action={
          <ButtonLink to="/home" variant="primary">
            Go to your repositories
          </ButtonLink>
        }
      />
    );
  }
  return (
    <div className="space-y-2">
      <p className="flex items-center gap-1.5 text-fg-muted text-xs" role="status">
        {mode === "live" ? (
          <>
            <Radio aria-hidden="true" className="size-3.5" /> Updates as reviews run.
          </>
        ) : (
          <>
            <RefreshCw aria-hidden="true" className="size-3.5" /> Live updates are unavailable; the list
            reloads every few seconds.
          </>
        )}
      </p>
      <ScrollRegion label="Review runs" className="rounded-lg border border-border bg-surface shadow-card">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Review runs, newest first</caption>
          <thead className="border-border border-b bg-surface-muted/60 text-fg-muted text-xs">
            <tr>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Pull request
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Status
              </th>
              <th scope="col" className={cn("px-4 py-2.5 font-medium", WIDE_SCREENS_ONLY)}>
                Trigger
              </th>
              <th scope="col" className={cn("px-4 py-2.5 font-medium", WIDE_SCREENS_ONLY)}>
                Duration
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Findings
              </th>
              <th scope="col" className={cn("px-4 py-2.5 font-medium", WIDE_SCREENS_ONLY)}>
                Queued
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {runs.map((run) => (
              <RunRow key={run.id} run={run} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

/**
 * A row opens its run, which shows every column (the ones phones leave out too): its link, a real
 * one for keyboards and screen readers, stretches over the whole row for a pointer.
 */
function RunRow({ run }: { run: ReviewRunSummary }) {
  return (
    <tr className="relative hover:bg-surface-muted/60">
      <td className="px-4 py-3">
        <Link
          to={`/reviews/${encodeURIComponent(run.id)}`}
          className="focus-ring rounded-sm font-medium text-fg after:absolute after:inset-0 hover:underline"
        >
          <RepositoryName name={run.repository} /> #{run.pullRequest}
        </Link>
        {run.pullRequestTitle ? <p className="text-fg-muted text-xs">{run.pullRequestTitle}</p> : null}
      </td>
      <td className="px-4 py-3">
        <RunStatusBadges run={run} />
      </td>
      <td className={cn("px-4 py-3 text-fg-muted", WIDE_SCREENS_ONLY)}>{triggerText(run)}</td>
      <td className={cn("px-4 py-3 text-fg-muted tabular-nums", WIDE_SCREENS_ONLY)}>
        {durationText(run.durationMs)}
      </td>
      <td className="px-4 py-3 text-fg-muted tabular-nums">{findingsText(run)}</td>
      <td className={cn("px-4 py-3 text-fg-muted", WIDE_SCREENS_ONLY)}>{whenText(run.queuedAt)}</td>
    </tr>
  );
}
