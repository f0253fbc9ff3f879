import { Outlet } from "react-router";
import { AppShell } from "../features/app-shell/app-shell";
import { confirmedUser, requireSession } from "../lib/guards.server";
import type { Route } from "./+types/app-layout";

/**
 * The guard runs as middleware, before any child loader: no protected loader starts (or calls the
 * backend) without a verified session cookie. A guest is sent to /login?redirectTo=<path and query>.
 * After the loaders, nothing is answered until the backend has confirmed the session (their calls'
 * answers, or a status call: docs/decisions/049), whichever loaders a request ran; the root loader
 * has usually waited for it already.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context, request }, next) => {
    requireSession(context, request);
    const response = await next();
    await confirmedUser(context, request);
    return response;
  },
];

/** A session the backend says has ended is sent to /login here, before any of the page is sent. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return { user: await confirmedUser(context, request) };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user}>
      <Outlet />
    </AppShell>
  );
}
