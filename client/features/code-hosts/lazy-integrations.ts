import { lazyPart } from "../../lib/lazy-part";

/**
 * The integration setup calls, kept off the first load: fetched when the visitor starts to fill in a
 * setup form, or as /installation opens (completing the installation is what that page is for).
 */
export const integrationsApi = lazyPart(() => import("./integrations-api"));
