import { lazyPart } from "../../lib/lazy-part";

/**
 * The browser's billing calls, kept off the first load: fetched when a billing
 * button is pointed at or focused, or as a page that calls at once (/payment-success) opens.
 */
export const billingApi = lazyPart(() => import("./billing-api"));
