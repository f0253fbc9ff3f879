/**
 * The typed API client a loader calls the backend with (docs/architecture.md#rendering): the
 * backend's URL, the bearer from the verified session and the request id; aborted with the request.
 * In the gateway its calls go through the page handler's transport (backend-transport.server.ts),
 * and their answers confirm the session (docs/decisions/049-session-confirmed-by-page-calls.md).
 */
import type { RouterContextProvider } from "react-router";
import { createApiClient } from "./api-client.ts";
import { backendTransport } from "./backend-transport.server";
import { gatewayContext } from "./gateway-context";
import { requireSession } from "./guards.server";
import { STREAM_TIMEOUT_MS } from "./stream-timeout";

/**
 * A loader's calls that the backend has not answered this long after the first of them fail as an
 * unavailable backend would, so the page shows its error state (with Retry). It stays under the
 * render's stream timeout, which starts later: a streamed promise still pending then is cut off by
 * React Router, and the browser would get a render error in place of the page's own message.
 */
export const LOADER_CALLS_DEADLINE_MS = STREAM_TIMEOUT_MS - 500;

export function backendFor(context: Readonly<RouterContextProvider>, request: Request) {
  const session = requireSession(context, request);
  const { backendUrl, requestId } = context.get(gatewayContext);
  const api = createApiClient({
    baseUrl: backendUrl,
    token: session.token,
    requestId,
    signal: request.signal,
    deadlineMs: LOADER_CALLS_DEADLINE_MS,
    // The global fetch is read per call when no transport is set (route tests replace it).
    fetch: session.confirmation.observe((input, init) => (backendTransport() ?? fetch)(input, init)),
  });
  return { session, api };
}
