/**
 * The data of the review screens (/reviews, /reviews/{runId}) and of the sandbox's pull requests,
 * loaded on the server. The loaders await it: these pages revalidate while a review is under way,
 * and awaited data swaps in place where a streamed promise would bring the skeletons back.
 */

import * as v from "valibot";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { pageQueryString, REVIEWS_PAGE_SIZE } from "../../../shared/contract/paging.ts";
import {
  REVIEW_FEEDBACK_PATH,
  type ReviewRunSummary,
  type reviewFeedbackResponseSchema,
  type reviewRunResponseSchema,
  reviewRunStatusSchema,
  type reviewRunsResponseSchema,
} from "../../../shared/contract/reviews.ts";
import {
  SANDBOX_PULL_PATHS,
  type sandboxPullResponseSchema,
  type sandboxPullsResponseSchema,
} from "../../../shared/contract/sandbox.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import { listStateOf } from "../../lib/list-url";
import { nullOn404, settle } from "../../lib/load-result.server";

type Api = Pick<ApiClient, "call">;

/** The filters of /reviews, from its URL (`?projectId=…&status=…&search=…`). */
export interface RunsFilter {
  projectId?: string | undefined;
  status?: ReviewRunSummary["status"] | undefined;
  /** A pull request's number or a part of its title (shared/contract/review-search.ts); "" for none. */
  search: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The page and filters /reviews's URL asks for; a malformed filter is no filter. */
export function runsStateOf(url: string): RunsFilter & { page: number } {
  const params = new URL(url).searchParams;
  const projectId = params.get("projectId") ?? "";
  const status = v.safeParse(reviewRunStatusSchema, params.get("status"));
  return {
    ...listStateOf(url),
    projectId: UUID.test(projectId) ? projectId : undefined,
    status: status.success ? status.output : undefined,
  };
}

export const REVIEW_LOAD_ERRORS = {
  runs: "Could not load the reviews",
  run: "Could not load the review",
  pulls: "Could not load the pull requests",
  pull: "Could not load the pull request",
  feedback: "The feedback on findings could not be loaded.",
} as const;

/** One page of the organisation's runs, newest first, filtered as the page's URL asks. */
export function loadReviewRuns(api: Api, filter: RunsFilter & { page: number }) {
  const query = pageQueryString(
    { page: filter.page, pageSize: REVIEWS_PAGE_SIZE, search: filter.search },
    { projectId: filter.projectId, status: filter.status },
  );
  return settle(
    api
      .call<typeof reviewRunsResponseSchema>(`${API_PATHS.reviews}${query}`)
      .then((answer) => ({ runs: answer.data, page: answer.page })),
    REVIEW_LOAD_ERRORS.runs,
  );
}

/** People's 👍 and 👎 on the organisation's findings, or on one repository's. */
export function loadReviewFeedback(api: Api, projectId: string | undefined) {
  const query = projectId ? `?${new URLSearchParams({ projectId })}` : "";
  return settle(
    api
      .call<typeof reviewFeedbackResponseSchema>(`${REVIEW_FEEDBACK_PATH}${query}`)
      .then((answer) => answer.data),
    REVIEW_LOAD_ERRORS.feedback,
  );
}

/** null for a run the organisation does not have. */
export function loadReviewRun(api: Api, runId: string) {
  return settle(
    nullOn404(
      api.call<typeof reviewRunResponseSchema>(API_PATHS.reviewRun(runId)).then((answer) => answer.data),
    ),
    REVIEW_LOAD_ERRORS.run,
  );
}

/** null unless the project is one of the organisation's sandbox repositories. */
export function loadSandboxPulls(api: Api, projectId: string) {
  return settle(
    nullOn404(
      api
        .call<typeof sandboxPullsResponseSchema>(SANDBOX_PULL_PATHS.pulls(projectId))
        .then((answer) => answer.data),
    ),
    REVIEW_LOAD_ERRORS.pulls,
  );
}

export function loadSandboxPull(api: Api, pullId: string) {
  return settle(
    nullOn404(
      api
        .call<typeof sandboxPullResponseSchema>(SANDBOX_PULL_PATHS.pull(pullId))
        .then((answer) => answer.data),
    ),
    REVIEW_LOAD_ERRORS.pull,
  );
}
