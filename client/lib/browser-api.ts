/**
 * The API client of the browser's own calls (same origin, the session cookie). A call under `/api`
 * that finds the session gone (signed out in another tab, revoked) sends the user to sign in, and
 * back to this page afterwards, instead of leaving the page with an error it cannot get past.
 */

import { loginPathFor } from "../features/accounts/use-sign-out";
import { type ApiClientOptions, createApiClient } from "./api-client.ts";

function toSignIn(): void {
  window.location.assign(loginPathFor(`${window.location.pathname}${window.location.search}`));
}

export function browserApiClient(options: Pick<ApiClientOptions, "signal"> = {}) {
  return createApiClient({ baseUrl: "", ...options, onSessionEnded: toSignIn });
}
