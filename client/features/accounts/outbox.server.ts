/**
 * The local outbox (docs/product.md#outbox), read on the server: the page exists only in local
 * mode, and the API client stays out of the browser's bundle.
 */
import { data, type RouterContextProvider } from "react-router";
import type { OutboxResponse } from "../../../shared/contract/accounts.ts";
import { ERRORS } from "../../../shared/contract/accounts.ts";
import { ApiError, createApiClient } from "../../lib/api-client.ts";
import { gatewayContext } from "../../lib/gateway-context";

export type OutboxResult =
  | { status: "ok"; messages: OutboxResponse["messages"] }
  | { status: "error"; message: string };

/** The outbox's messages; throws a 404 when local mode is off or the backend has no outbox. */
export async function loadOutbox(
  context: Readonly<RouterContextProvider>,
  request: Request,
): Promise<OutboxResult> {
  const { localMode, backendUrl, requestId } = context.get(gatewayContext);
  if (!localMode) throw data(null, { status: 404 });
  const api = createApiClient({ baseUrl: backendUrl, requestId, signal: request.signal });
  try {
    return { status: "ok", messages: (await api.outbox()).messages };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    return { status: "error", message: ERRORS.outboxFailed };
  }
}
