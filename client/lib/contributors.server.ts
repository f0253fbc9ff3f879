/** The contributors of /subscriptions, loaded on the server (docs/product.md#contributors-and-seats). */
import type { ApiClient } from "../../shared/api-client.ts";
import { type Contributor, contributorsResponseSchema } from "../../shared/billing-contract.ts";
import { CONTRIBUTOR_MESSAGES } from "../../shared/billing-messages.ts";
import { API_PATHS } from "../../shared/contract.ts";
import { type LoadResult, settle } from "./load-result.server";

export function loadContributors(api: Pick<ApiClient, "request">): Promise<LoadResult<Contributor[]>> {
  return settle(
    api.request(contributorsResponseSchema, API_PATHS.contributors).then((answer) => answer.data),
    CONTRIBUTOR_MESSAGES.fetchFailed,
  );
}
