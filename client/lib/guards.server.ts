/**
 * Server-side route guards (docs/architecture.md#rendering). They read the verified session from the
 * gateway context; the token they return stays on the server.
 */
import { type RouterContextProvider, redirect } from "react-router";
import { DEFAULT_PATH } from "../../shared/constants.ts";
import { type GatewayContext, gatewayContext } from "./gateway-context";
import { loginPathFor, pageOfRequest } from "./login-redirect";

type Session = NonNullable<GatewayContext["session"]>;

/**
 * The session, or a redirect to /login that remembers the page the visitor wanted: for a client
 * navigation's data request, the page, never its `.data` URL.
 */
export function requireSession(context: Readonly<RouterContextProvider>, request: Request): Session {
  const { session } = context.get(gatewayContext);
  if (!session) throw redirect(loginPathFor(pageOfRequest(request.url)));
  return session;
}

/** Guest-only pages send a signed-in visitor to the default path. */
export function requireGuest(context: Readonly<RouterContextProvider>): void {
  if (context.get(gatewayContext).session) throw redirect(DEFAULT_PATH);
}
