import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { logout } from "./auth-api";

/**
 * Sign-out: POST /auth/logout (the gateway clears the cookie), then /login, also when the call
 * fails (spec section 2). `returnTo` keeps the page to come back to after signing in again.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const signOut = useCallback(
    async (returnTo?: string) => {
      setPending(true);
      await logout();
      const query = returnTo ? `?${new URLSearchParams({ redirectTo: returnTo })}` : "";
      navigate(`/login${query}`, { replace: true });
    },
    [navigate],
  );

  return { signOut, pending };
}
