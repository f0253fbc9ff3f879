import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { loadAuthApi } from "./lazy-auth";
import { loginPathFor } from "./login-redirect";

/**
 * Sign-out: POST /auth/logout (the gateway clears the cookie), then /login, also when the call
 * fails (docs/product.md#signed-in-layout). `returnTo` keeps the page to come back to after signing in again.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const signOut = useCallback(
    async (returnTo?: string) => {
      setPending(true);
      // The /auth calls load on demand (usually from the cache: sign-in fetched them); a failed
      // load ends like a failed call, on /login.
      await loadAuthApi().then(
        ({ logout }) => logout(),
        () => false,
      );
      navigate(returnTo ? loginPathFor(returnTo) : "/login", { replace: true });
    },
    [navigate],
  );

  return { signOut, pending };
}
