import { Outlet } from "react-router";
import { AuthFrame } from "../features/accounts/auth-frame";
import { requireGuest } from "../lib/guards.server";
import type { Route } from "./+types/guest-layout";

/** Guest-only pages: a signed-in visitor goes to /home before anything renders. */
export async function loader({ context }: Route.LoaderArgs) {
  await requireGuest(context);
  return null;
}

export default function GuestLayout() {
  return (
    <AuthFrame>
      <Outlet />
    </AuthFrame>
  );
}
