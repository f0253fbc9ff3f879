import { Outlet } from "react-router";
import { requireGuest } from "../lib/guards.server";
import type { Route } from "./+types/guest-layout";

/** Guest-only pages: a signed-in visitor goes to /home before anything renders. */
export function loader({ context }: Route.LoaderArgs) {
  requireGuest(context);
  return null;
}

export default function GuestLayout() {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-canvas px-4 py-10 sm:justify-center sm:py-16">
      <main className="w-full max-w-[400px]">
        <Outlet />
      </main>
    </div>
  );
}
