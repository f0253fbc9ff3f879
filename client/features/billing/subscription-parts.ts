import { lazyPart } from "../../lib/lazy-part";

/** The /subscriptions dialogs, fetched on pointerenter or focus of the buttons that open them. */
export const subscriptionDialogs = lazyPart(() => import("./subscription-dialogs"));
