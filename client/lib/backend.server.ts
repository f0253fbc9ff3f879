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

export function backendFor(context: Readonly<RouterContextProvider>, request: Request) {
  const session = requireSession(context, request);
  const { backendUrl, requestId } = context.get(gatewayContext);
  const api = createApiClient({
    baseUrl: backendUrl,
    token: session.token,
    requestId,
    signal: request.signal,
    // The global fetch is read per call when no transport is set (route tests replace it).
    fetch: session.confirmation.observe((input, init) => (backendTransport() ?? fetch)(input, init)),
  });
  return { session, api };
}
