import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { loadAuthApi } from "./lazy-auth";

/**
 * Where a visitor without a session is sent: /login, remembering the page (path and query) to come
 * back to after signing in. The server's guards and the browser's calls use it too; it lives here,
 * in a chunk every signed-in page loads already (docs/decisions/006-page-weight.md).
 */
export function loginPathFor(page: string): string {
  return page === "/" || page === "" ? "/login" : `/login?${new URLSearchParams({ redirectTo: page })}`;
}

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
