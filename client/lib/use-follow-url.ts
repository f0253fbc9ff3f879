import { useCallback } from "react";
import { useNavigate } from "react-router";

/**
 * Goes where a billing call answered: a page of this app (the sandbox's checkout and portal, the
 * payment pages) through the router, anything else (Stripe) as a full page load.
 */
export function useFollowUrl(): (url: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (url: string) => {
      const target = new URL(url, window.location.href);
      if (target.origin === window.location.origin) {
        void navigate(`${target.pathname}${target.search}${target.hash}`);
      } else {
        window.location.assign(target.href);
      }
    },
    [navigate],
  );
}
