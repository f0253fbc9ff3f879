import { lazyPart } from "../../lib/lazy-part";

/** The review screens' calls, kept off the first load: fetched when a button that makes one is pointed at or focused. */
export const reviewCalls = lazyPart(() => import("./review-calls"));
