/**
 * The CSP nonce reaches React through this context, set by entry.server.tsx from the gateway's
 * per-request nonce. In the browser it is empty: the nonce matters only in the server's HTML.
 */
import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
