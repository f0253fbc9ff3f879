/**
 * The runs the Reviews page's search names (`search` of GET /api/reviews). Kept apart from
 * reviews.ts, which pages without the search load too.
 */
import type { ReviewRunSummary } from "./reviews.ts";

/** The pull request number a search names ("42" or "#42"), if it is one. */
export function pullRequestNumberOf(search: string): number | undefined {
  const number = /^#?(\d{1,9})$/.exec(search.trim())?.[1];
  return number === undefined ? undefined : Number(number);
}

/**
 * Whether a run is of a pull request that `search` names: its number, or a part of its title in any
 * case. The backend's query and the live list's merge of new runs both follow this.
 */
export function runMatchesSearch(
  run: Pick<ReviewRunSummary, "pullRequest" | "pullRequestTitle">,
  search: string,
): boolean {
  const text = search.trim().toLowerCase();
  return (
    text === "" ||
    run.pullRequest === pullRequestNumberOf(text) ||
    (run.pullRequestTitle ?? "").toLowerCase().includes(text)
  );
}
