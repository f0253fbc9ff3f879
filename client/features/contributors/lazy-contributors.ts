import { lazyPart } from "../../lib/lazy-part";

/**
 * The table's calls, kept off the first load. The table's first page comes with the page, so they
 * are fetched when the table is pointed at or focused, or at the latest by the first call.
 */
export const contributorCalls = lazyPart(() => import("./contributors-api"));
