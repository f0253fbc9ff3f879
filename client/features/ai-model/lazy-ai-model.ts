import { lazyPart } from "../../lib/lazy-part";

/**
 * The AI model calls and the form's checks, kept off the first load: fetched when the visitor starts
 * to fill in the form (focus or pointer on it), or at the latest by its first check or call.
 */
export const aiModelApi = lazyPart(() => import("./ai-model-api"));
