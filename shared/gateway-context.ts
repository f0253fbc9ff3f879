/**
 * What the gateway hands to every loader and to the streaming render, through React Router's load
 * context. Types only: the gateway (server/) fills it in, the React app (client/) reads it, and the
 * module that joins the two is part of the app's server build (client/page-handler.ts), so each
 * side has one copy of everything it runs. See docs/architecture.md (rendering).
 */
import type { SessionUser } from "./contract/accounts.ts";

export interface PublicFirebaseConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  /** Set only when the Firebase Auth emulator is in use, e.g. "http://127.0.0.1:9099". */
  emulatorUrl?: string;
}

/** The request's logger (pino), narrowed to what the render uses. */
export interface RenderLog {
  debug(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface GatewayContext {
  nonce: string;
  requestId: string;
  productName: string;
  backendUrl: string;
  firebase: PublicFirebaseConfig;
  /** LOCAL_MODE: the emulator and the local outbox (/outbox) stand in for Firebase and e-mail. */
  localMode: boolean;
  /**
   * Null when nobody is signed in; the token never leaves the server. `user` is the verified
   * cookie's; whether the backend still holds the session is `confirmation`'s to say.
   */
  session: { token: string; user: SessionUser; confirmation: SessionConfirmation } | null;
  log: RenderLog;
}

/**
 * The backend's word on a page request's session, taken from the answers to the page's own calls
 * (docs/decisions/049-session-confirmed-by-page-calls.md; server/page-session.ts).
 */
export interface SessionConfirmation {
  /** The Fetch a loader reaches the backend with, its answers heard as the backend's word on the session. */
  observe(send: typeof fetch): typeof fetch;
  /**
   * The user, with the names the backend has now; null when the backend says the session has ended
   * (the cookie is then cleared). Waits for the first of the page's calls to tell, or asks.
   */
  confirmed(): Promise<SessionUser | null>;
}

/** What the server build exports for the gateway to mount (client/page-handler.ts). */
export interface PageHandlerModule {
  createPageHandler(options: {
    mode: "production" | "development";
    contextFor(req: import("express").Request, res: import("express").Response): GatewayContext;
  }): import("express").RequestHandler;
}
