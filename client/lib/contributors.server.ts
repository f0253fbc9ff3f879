/** The contributors of /subscriptions, their first page, loaded on the server (docs/product.md#contributors-and-seats). */
import type { ApiClient } from "../../shared/api-client.ts";
import { type ContributorsPage, contributorsResponseSchema } from "../../shared/billing-contract.ts";
import { CONTRIBUTOR_MESSAGES } from "../../shared/billing-messages.ts";
import { DEFAULT_CONTRIBUTOR_PAGE_SIZE } from "../../shared/constants.ts";
import { API_PATHS } from "../../shared/contract.ts";
import { pageQueryString } from "../../shared/paging.ts";
import { type LoadResult, settle } from "./load-result.server";

export function loadContributors(api: Pick<ApiClient, "request">): Promise<LoadResult<ContributorsPage>> {
  return settle(
    api
      .request(
        contributorsResponseSchema,
        `${API_PATHS.contributors}${pageQueryString({ pageSize: DEFAULT_CONTRIBUTOR_PAGE_SIZE })}`,
      )
      .then((answer) => ({ contributors: answer.data, page: answer.page })),
    CONTRIBUTOR_MESSAGES.fetchFailed,
  );
}
