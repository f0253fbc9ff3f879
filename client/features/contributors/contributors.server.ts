/** The contributors of /subscriptions, their first page, loaded on the server (docs/product.md#contributors-and-seats). */

import { DEFAULT_CONTRIBUTOR_PAGE_SIZE } from "../../../shared/constants.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import {
  CONTRIBUTOR_MESSAGES,
  type ContributorsPage,
  type contributorsResponseSchema,
} from "../../../shared/contract/contributors.ts";
import { pageQueryString } from "../../../shared/contract/paging.ts";
import type { ApiClient } from "../../lib/api-client.ts";
import { type LoadResult, settle } from "../../lib/load-result.server";

export function loadContributors(api: Pick<ApiClient, "call">): Promise<LoadResult<ContributorsPage>> {
  return settle(
    api
      .call<typeof contributorsResponseSchema>(
        `${API_PATHS.contributors}${pageQueryString({ pageSize: DEFAULT_CONTRIBUTOR_PAGE_SIZE })}`,
      )
      .then((answer) => ({ contributors: answer.data, page: answer.page })),
    CONTRIBUTOR_MESSAGES.fetchFailed,
  );
}
