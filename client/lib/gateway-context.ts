/**
 * What the gateway hands to every loader and action through React Router's context: the verified
 * session (token included, server side only), the CSP nonce and public configuration.
 */
import { createContext, type RouterContext } from "react-router";
import type { SessionUser } from "../../shared/contract.ts";

export interface PublicFirebaseConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  /** Set only when the Firebase Auth emulator is in use, e.g. "http://127.0.0.1:9099". */
  emulatorUrl?: string;
}

export interface GatewayContext {
  nonce: string;
  requestId: string;
  productName: string;
  backendUrl: string;
  firebase: PublicFirebaseConfig;
  /** Null when nobody is signed in; the token never leaves the server. */
  session: { token: string; user: SessionUser } | null;
}

/**
 * This module is loaded twice: by the gateway (Node) and inside the React Router build (or Vite's
 * dev module graph). Context keys compare by identity, so both copies share one key on globalThis.
 */
const KEY = Symbol.for("argus.gatewayContext");
const registry = globalThis as typeof globalThis & { [KEY]?: RouterContext<GatewayContext> };
registry[KEY] ??= createContext<GatewayContext>();
export const gatewayContext: RouterContext<GatewayContext> = registry[KEY];
