import { Outlet } from "react-router";
import { AppShell } from "../features/app-shell/app-shell";
import { requireSession } from "../lib/guards.server";
import type { Route } from "./+types/app-layout";

/**
 * The guard runs as middleware, before any child loader: no protected loader starts (or calls the
 * backend) without a session. A guest is sent to /login?redirectTo=<path and query>.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    requireSession(context, request);
  },
];

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireSession(context, request);
  return { user };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user}>
      <Outlet />
    </AppShell>
  );
}
