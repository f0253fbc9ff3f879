/**
 * Server-side route guards (docs/architecture.md#rendering). They read the verified session from the
 * gateway context; the token they return stays on the server.
 */
import { type RouterContextProvider, redirect } from "react-router";
import { DEFAULT_PATH } from "../../shared/constants.ts";
import { type GatewayContext, gatewayContext } from "./gateway-context";

type Session = NonNullable<GatewayContext["session"]>;

/** Where a guest is sent from a protected URL: /login, remembering the path and query. */
function loginRedirectPath(requestUrl: string): string {
  const url = new URL(requestUrl);
  const back = `${url.pathname}${url.search}`;
  return back === "/" || back === "" ? "/login" : `/login?${new URLSearchParams({ redirectTo: back })}`;
}

/** The session, or a redirect to /login that remembers where the visitor wanted to go. */
export function requireSession(context: Readonly<RouterContextProvider>, request: Request): Session {
  const { session } = context.get(gatewayContext);
  if (!session) throw redirect(loginRedirectPath(request.url));
  return session;
}

/** Guest-only pages send a signed-in visitor to the default path. */
export function requireGuest(context: Readonly<RouterContextProvider>): void {
  if (context.get(gatewayContext).session) throw redirect(DEFAULT_PATH);
}
