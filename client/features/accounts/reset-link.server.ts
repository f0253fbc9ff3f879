/**
 * Whether a password-reset link can still be used, asked on the server before /reset-password
 * shows its form (docs/product.md#reset-password), so a used or expired link says so at once.
 */
import type { RouterContextProvider } from "react-router";
import { ApiError, createApiClient } from "../../lib/api-client.ts";
import { gatewayContext } from "../../lib/gateway-context";

export type ResetLink =
  | { status: "usable" }
  /** Used, expired or unknown: the backend's message. */
  | { status: "invalid"; message: string }
  /** The backend could not say (unreachable, busy): the form shows, and the reset itself will tell. */
  | { status: "unchecked" };

export async function checkResetLink(
  context: Readonly<RouterContextProvider>,
  request: Request,
  oobCode: string,
): Promise<ResetLink> {
  const { backendUrl, requestId } = context.get(gatewayContext);
  const api = createApiClient({ baseUrl: backendUrl, requestId, signal: request.signal });
  try {
    await api.checkResetCode(oobCode);
    return { status: "usable" };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400)
      return { status: "invalid", message: error.message };
    return { status: "unchecked" };
  }
}
