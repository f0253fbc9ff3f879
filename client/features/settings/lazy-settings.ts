import { lazyPart } from "../../lib/lazy-part";

/**
 * The settings calls, kept off the first load: fetched when the visitor reaches for a switch (pointer
 * or focus on the settings), or by the client loader on a client navigation to /settings.
 */
export const settingsApi = lazyPart(() => import("./settings-api"));
