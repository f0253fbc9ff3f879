/**
 * Security headers with a per-request CSP nonce, and the cross-site request check.
 *
 * The nonce is made here, in Express, and handed to React Router through the load context: a nonce
 * made in entry.server.tsx would produce a second CSP header and block hydration.
 */
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import type { GatewayConfig } from "./config.ts";
import { sendError } from "./errors.ts";

export function nonceOf(res: Response): string {
  return res.locals.cspNonce as string;
}

export function securityHeaders(config: GatewayConfig): RequestHandler[] {
  const production = config.env === "production";
  const firebase = config.firebase;
  // Where the Firebase client SDK talks to: the emulator locally, Google's identity hosts otherwise.
  const identityOrigins = firebase.emulatorUrl
    ? [firebase.emulatorUrl]
    : ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"];
  const popupOrigins = firebase.emulatorUrl ? [firebase.emulatorUrl] : [`https://${firebase.authDomain}`];
  // Vite's dev server pushes updates over a websocket.
  const devOrigins = config.env === "development" ? ["ws:", "wss:"] : [];

  const makeNonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  };

  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${nonceOf(res as Response)}'`,
          ...(firebase.emulatorUrl ? [] : ["https://apis.google.com"]),
        ],
        scriptSrcAttr: ["'none'"],
        // Inline style attributes (React's style prop) are allowed; scripts never are.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...identityOrigins, ...devOrigins],
        frameSrc: popupOrigins,
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: production ? [] : null,
      },
    },
    // Firebase's sign-in popup must be able to report back to this window.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: production ? { maxAge: 63_072_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });

  return [makeNonce, headers];
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF defence on top of SameSite=Strict: a state-changing request that a browser marks as coming
 * from another site is refused before it reaches anything else.
 */
export function rejectCrossSiteWrites(req: Request, res: Response, next: NextFunction): void {
  if (!STATE_CHANGING.has(req.method)) {
    next();
    return;
  }
  const fetchSite = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const ownOrigin = `${req.protocol}://${req.get("host")}`;
  if (fetchSite === "cross-site" || (origin !== undefined && origin !== ownOrigin)) {
    sendError(res, 403, { error: "Cross-site request refused", code: "CSRF" });
    return;
  }
  next();
}
