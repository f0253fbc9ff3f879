import { MessageSquareCode, Radio, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Form, href, Link } from "react-router";
import { type PageInfo, pageCount, SEARCH_MAX } from "../../shared/contract/paging.ts";
import { runMatchesSearch } from "../../shared/contract/review-search.ts";
import type { ReviewRunSummary } from "../../shared/contract/reviews.ts";
import { Pager } from "../components/pager";
import { Settled } from "../components/streamed";
import {
  Button,
  ButtonLink,
  EmptyState,
  ScrollRegion,
  SelectField,
  TextField,
  TextLink,
} from "../components/ui";
import { RepositoryName } from "../features/code-hosts/repository-name";
import { FeedbackSummary } from "../features/reviews/feedback-summary";
import { loadReviewFeedback, loadReviewRuns, runsStateOf } from "../features/reviews/reviews.server";
import { durationText, findingsText, STATUS_OPTIONS, triggerText } from "../features/reviews/run-status";
import { RunStatusBadges } from "../features/reviews/shadow";
import { useRunEvents } from "../features/reviews/use-run-events";
import { backendFor } from "../lib/backend.server";
import { cn } from "../lib/cn";
import { formatDateTime } from "../lib/formats";
import { listSearchOf } from "../lib/list-url";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { useFilterSubmit } from "../lib/use-filter-submit";
import type { Route } from "./+types/reviews";

export const handle: RouteHandle = { title: "Reviews" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Reviews", productNameOf(matches)) }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  const state = runsStateOf(request.url);
  const [runs, feedback] = await Promise.all([
    loadReviewRuns(api, state),
    loadReviewFeedback(api, state.projectId),
  ]);
  return { state, runs, feedback };
}

/**
 * docs/product.md#reviews: every review run of the organisation, newest first, a page at a time,
 * of one repository or outcome when the URL says so, kept live.
 */
export default function Reviews({ loaderData }: Route.ComponentProps) {
  const { state, runs } = loaderData;
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
      <FeedbackSummary
        result={loaderData.feedback}
        projectId={state.projectId}
        // Filtered to one repository, every run listed is of it.
        repositoryName={runs.status === "ok" ? runs.data.runs[0]?.repository : undefined}
        hasReviews={runs.status === "ok" && runs.data.page.total > 0}
      />
      <RunsFilterForm state={state} />
      <Settled
        result={runs}
        errorDescription="The reviews could not be fetched. Check your connection and try again."
      >
        {(list) => <LiveRuns initial={list.runs} page={list.page} state={state} />}
      </Settled>
    </section>
  );
}

/** The columns a phone leaves out; a run's own page shows them (docs/decisions/037-narrow-screens.md). */
const WIDE_SCREENS_ONLY = "hidden sm:table-cell";

type RunsState = Route.ComponentProps["loaderData"]["state"];

/** The query string of /reviews for a page and the filters. */
const runsHref = (state: RunsState, page = 1) =>
  `${href("/reviews")}${listSearchOf(
    { page, search: state.search },
    { projectId: state.projectId, status: state.status },
  )}`;

/**
 * The pull request search and the outcome filter: a GET form, so the filters are in the URL (a link
 * and the back button keep them) and work before hydration. The repository filter comes from a
 * run's "Only this repository".
 */
function RunsFilterForm({ state }: { state: RunsState }) {
  const onSubmit = useFilterSubmit();
  return (
    <Form
      method="get"
      aria-label="Filter reviews"
      className="flex flex-wrap items-end gap-3"
      onSubmit={onSubmit}
    >
      {state.projectId ? <input type="hidden" name="projectId" value={state.projectId} /> : null}
      <TextField
        // Keys unlike the outcome's (both are "" unfiltered): siblings with one key break the form.
        key={`search:${state.search}`}
        className="w-full sm:w-64"
        label="Pull request"
        type="search"
        name="search"
        placeholder="Number or title"
        defaultValue={state.search}
        maxLength={SEARCH_MAX}
        autoComplete="off"
      />
      <SelectField
        key={`status:${state.status ?? ""}`}
        className="w-48"
        label="Outcome"
        name="status"
        defaultValue={state.status ?? ""}
        options={[{ value: "", label: "Any outcome" }, ...STATUS_OPTIONS]}
      />
      <Button type="submit" variant="secondary" size="field">
        Apply
      </Button>
      {state.projectId ? (
        <TextLink to={runsHref({ ...state, projectId: undefined })} className="pb-2 text-sm">
          Show every repository
        </TextLink>
      ) : null}
    </Form>
  );
}

/**
 * Puts a changed run in its place: updated where it is; a new one on top only on the first page and
 * when the filters take it.
 */
function merged(
  runs: readonly ReviewRunSummary[],
  run: ReviewRunSummary,
  takesNew: (run: ReviewRunSummary) => boolean,
): ReviewRunSummary[] {
  if (runs.some((candidate) => candidate.id === run.id)) {
    return runs.map((candidate) => (candidate.id === run.id ? run : candidate));
  }
  return takesNew(run) ? [run, ...runs] : [...runs];
}

function LiveRuns({
  initial,
  page,
  state,
}: {
  initial: ReviewRunSummary[];
  page: PageInfo;
  state: RunsState;
}) {
  const [runs, setRuns] = useState(initial);
  // Reloaded data (the fallback, or a navigation back here) replaces what the stream merged.
  useEffect(() => setRuns(initial), [initial]);
  const { projectId, status, search } = state;
  const onFirstPage = page.page === 1;
  const mode = useRunEvents(
    useCallback(
      (run: ReviewRunSummary) =>
        setRuns((list) =>
          merged(
            list,
            run,
            (candidate) =>
              onFirstPage &&
              (!projectId || candidate.projectId === projectId) &&
              (!status || candidate.status === status) &&
              runMatchesSearch(candidate, search),
          ),
        ),
      [onFirstPage, projectId, status, search],
    ),
  );

  if (runs.length === 0 && (projectId || status || search || page.page > 1)) {
    return (
      <EmptyState
        icon={<MessageSquareCode />}
        title="No reviews match these filters"
        action={<ButtonLink to={href("/reviews")}>Show every review</ButtonLink>}
      />
    );
  }
  if (runs.length === 0) {
    return (
      <EmptyState
        icon={<MessageSquareCode />}
        title="No reviews yet"
        description="A review starts when a pull request is opened or updated in a connected repository. With the sandbox code host, open one from a repository's card on Home."
        action={
          <ButtonLink to={href("/home")} variant="primary">
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
              <RunRow
                key={run.id}
                run={run}
                // The repository filter joins the outcome filter, from the first page.
                repositoryHref={projectId ? null : runsHref({ ...state, projectId: run.projectId, page: 1 })}
              />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="text-fg-muted text-sm">
        {page.total} {page.total === 1 ? "review" : "reviews"}
      </p>
      <Pager
        label="Review pages"
        page={page.page}
        pageCount={pageCount(page)}
        hrefOf={(n) => runsHref(state, n)}
      />
    </div>
  );
}

/**
 * A row opens its run, which shows every column (the ones phones leave out too): its link, a real
 * one for keyboards and screen readers, stretches over the whole row for a pointer.
 */
function RunRow({ run, repositoryHref }: { run: ReviewRunSummary; repositoryHref: string | null }) {
  return (
    <tr className="relative hover:bg-surface-muted/60">
      <td className="px-4 py-3">
        <Link
          to={href("/reviews/:runId", { runId: run.id })}
          className="focus-ring rounded-sm font-medium text-fg after:absolute after:inset-0 hover:underline"
        >
          <RepositoryName name={run.repository} /> #{run.pullRequest}
        </Link>
        {run.pullRequestTitle ? <p className="text-fg-muted text-xs">{run.pullRequestTitle}</p> : null}
        {repositoryHref === null ? null : (
          <Link
            to={repositoryHref}
            aria-label={`Only this repository: ${run.repository}`}
            // Above the run's link, which covers the row.
            // A line of its own also under a run not started yet, which has no title to push it down.
            className="focus-ring relative z-10 block w-fit rounded-sm text-accent-text text-xs hover:underline"
          >
            Only this repository
          </Link>
        )}
      </td>
      <td className="px-4 py-3">
        <RunStatusBadges run={run} />
      </td>
      <td className={cn("px-4 py-3 text-fg-muted", WIDE_SCREENS_ONLY)}>{triggerText(run)}</td>
      <td className={cn("px-4 py-3 text-fg-muted tabular-nums", WIDE_SCREENS_ONLY)}>
        {durationText(run.durationMs)}
      </td>
      <td className="whitespace-nowrap px-4 py-3 text-fg-muted tabular-nums">{findingsText(run)}</td>
      <td className={cn("px-4 py-3 text-fg-muted", WIDE_SCREENS_ONLY)}>{formatDateTime(run.queuedAt)}</td>
    </tr>
  );
}
