/**
 * Server-side route guards (docs/architecture.md#rendering). They read the verified session from the
 * gateway context; the token they return stays on the server.
 */
import { type RouterContextProvider, redirect } from "react-router";
import { DEFAULT_PATH } from "../../shared/constants.ts";
import { loginPathFor } from "../features/accounts/use-sign-out";
import { type GatewayContext, gatewayContext } from "./gateway-context";

type Session = NonNullable<GatewayContext["session"]>;

/**
 * The page a request is for. A client navigation asks for its data at `<page>.data` (`/_.data`
 * for the root) with a `_routes` parameter; the page is the path without them, as React Router
 * reads it.
 */
function pageOfRequest(requestUrl: string): string {
  const url = new URL(requestUrl);
  const pathname = url.pathname.endsWith("/_.data")
    ? url.pathname.slice(0, -"_.data".length)
    : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return `${pathname}${search ? `?${search}` : ""}`;
}

/**
 * The verified cookie's session, or a redirect to /login that remembers the page the visitor
 * wanted: for a client navigation's data request, the page, never its `.data` URL. Whether the
 * backend still holds the session is for `confirmedUser` to say; calls made with this session are
 * refused by the backend once it has ended.
 */
export function requireSession(context: Readonly<RouterContextProvider>, request: Request): Session {
  const { session } = context.get(gatewayContext);
  if (!session) throw redirect(loginPathFor(pageOfRequest(request.url)));
  return session;
}

/**
 * The signed-in user as the backend has them now, or the same redirect as `requireSession` when
 * there is no session or the backend says it has ended (the gateway then clears the cookie). Waits
 * for the backend's word: start the loader's calls first, their answers give it.
 */
export async function confirmedUser(
  context: Readonly<RouterContextProvider>,
  request: Request,
): Promise<Session["user"]> {
  const user = await requireSession(context, request).confirmation.confirmed();
  if (!user) throw redirect(loginPathFor(pageOfRequest(request.url)));
  return user;
}

/** Guest-only pages send a signed-in visitor to the default path; a session that has ended is none. */
export async function requireGuest(context: Readonly<RouterContextProvider>): Promise<void> {
  const { session } = context.get(gatewayContext);
  if (session && (await session.confirmation.confirmed())) throw redirect(DEFAULT_PATH);
}
