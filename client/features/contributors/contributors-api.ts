/**
 * The contributor and seat calls from the browser to the gateway (same origin, the session cookie):
 * docs/product.md#contributors-and-seats. The contributors table fetches it on demand
 * (lazy-contributors.ts).
 */

import { API_PATHS } from "../../../shared/contract/common.ts";
import {
  type addContributorResponseSchema,
  CONTRIBUTOR_MESSAGES,
  type Contributor,
  type ContributorSuggestion,
  type ContributorsPage,
  type contributorSuggestionsResponseSchema,
  type contributorsResponseSchema,
  type SeatStatus,
  type seatChangeResponseSchema,
} from "../../../shared/contract/contributors.ts";
import { type ContributorSort, type PageQuery, pageQueryString } from "../../../shared/contract/paging.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";

const api = browserApiClient();

/** A failure carries its toast: the product's wording as title, the backend's reason when it gave one. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; title: string; reason?: string };

async function outcomeOf<T>(call: Promise<T>, title: string): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    const reason = error instanceof ApiError && error.body ? error.message : undefined;
    return reason ? { ok: false, title, reason } : { ok: false, title };
  }
}

/** One page of the organisation's contributors, searched by name and sorted by the backend. */
export function listContributors(query: PageQuery<ContributorSort>): Promise<Outcome<ContributorsPage>> {
  return outcomeOf(
    api
      .call<typeof contributorsResponseSchema>(`${API_PATHS.contributors}${pageQueryString(query)}`)
      .then((answer) => ({ contributors: answer.data, page: answer.page })),
    CONTRIBUTOR_MESSAGES.fetchFailed,
  );
}

/** Adds (or updates) the code host's user `username`; `created` false: they were there already. */
export function addContributor(
  username: string,
): Promise<Outcome<{ created: boolean; contributor: Contributor }>> {
  return outcomeOf(
    api
      .call<typeof addContributorResponseSchema>(API_PATHS.addContributor, {
        method: "POST",
        body: { platform_id: username, platform_type: "github" },
      })
      .then((answer) => ({ created: answer.created, contributor: answer.data })),
    CONTRIBUTOR_MESSAGES.addFailed,
  );
}

/**
 * The people the code host can name for Add Contributor (the sandbox's); none when it cannot list
 * them or the call fails, since typing a username works either way.
 */
export async function contributorSuggestions(): Promise<ContributorSuggestion[]> {
  try {
    return (await api.call<typeof contributorSuggestionsResponseSchema>(API_PATHS.contributorSuggestions))
      .data;
  } catch {
    return [];
  }
}

/** Gives the contributor a seat (`seated` true) or takes it back; answers the counts after it. */
export function setSeat(contributorId: string, seated: boolean): Promise<Outcome<SeatStatus>> {
  return outcomeOf(
    api
      .call<typeof seatChangeResponseSchema>(seated ? API_PATHS.assignSeat : API_PATHS.unassignSeat, {
        method: "POST",
        body: { userId: contributorId },
      })
      .then((answer) => answer.data),
    CONTRIBUTOR_MESSAGES.toggleFailed,
  );
}
