/**
 * Security headers (a per-request CSP nonce for pages, hashes for a page rendered once, a fixed
 * set for proxied answers), and the cross-site request check, for Express and for the plain
 * node:http path of proxied calls.
 *
 * The nonce is made here, in Express, and handed to React Router through the load context: a nonce
 * made in entry.server.tsx would produce a second CSP header and block hydration.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import helmet, { contentSecurityPolicy } from "helmet";
import type { GatewayConfig } from "./config.ts";
import { GATEWAY_ERRORS, sendError } from "./errors.ts";
import { isProxiedPath } from "./proxy.ts";

export function nonceOf(res: Response): string {
  return res.locals.cspNonce as string;
}

type ScriptSource = string | ((req: IncomingMessage, res: ServerResponse) => string);

/**
 * A page's CSP: scripts from this origin, and the inline ones that `inlineScripts` name (a
 * per-request nonce, or the hashes of a page rendered once, server/guest-pages.ts).
 */
function pageDirectives(config: GatewayConfig, inlineScripts: ScriptSource[]) {
  const production = config.env === "production";
  const firebase = config.firebase;
  // Where the Firebase client SDK talks to: the emulator locally, Google's identity hosts otherwise.
  const identityOrigins = firebase.emulatorUrl
    ? [firebase.emulatorUrl]
    : ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"];
  const popupOrigins = firebase.emulatorUrl ? [firebase.emulatorUrl] : [`https://${firebase.authDomain}`];
  // Vite's dev server pushes updates over a websocket.
  const devOrigins = config.env === "development" ? ["ws:", "wss:"] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...inlineScripts, ...(firebase.emulatorUrl ? [] : ["https://apis.google.com"])],
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
  };
}

/** The headers a middleware that sets the same ones on every answer sets, read once. */
function fixedHeadersOf(middleware: RequestHandler): ReadonlyArray<readonly [string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  middleware({} as Request, recorder as unknown as Response, () => {});
  return headers;
}

export type FixedHeaders = ReadonlyArray<readonly [string, string]>;

export function setFixedHeaders(res: ServerResponse, headers: FixedHeaders): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/**
 * Pages get a CSP with a fresh nonce for their inline scripts. What the gateway passes on from the
 * backend (JSON and redirects) gets a fixed, stricter policy under which nothing may load, run or
 * frame it; it has no inline script, so it needs no nonce.
 */
export function securityHeaders(config: GatewayConfig): {
  /** For pages and the gateway's own answers (Express). */
  middleware: RequestHandler;
  /** What every answer on a proxied path gets, set as is on the plain response. */
  proxied: FixedHeaders;
} {
  const production = config.env === "production";
  const sharedHeaders = {
    // Firebase's sign-in popup must be able to report back to this window.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: production ? { maxAge: 63_072_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  } as const;

  const pageHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: pageDirectives(config, [(_req, res) => `'nonce-${nonceOf(res as Response)}'`]),
    },
    ...sharedHeaders,
  });

  // The same on every answer: worked out once here, not by helmet per request.
  const proxied = fixedHeadersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'none'"],
          frameAncestors: ["'none'"],
        },
      },
      ...sharedHeaders,
    }),
  );

  const middleware: RequestHandler = (req, res, next) => {
    if (isProxiedPath(req.path)) {
      setFixedHeaders(res, proxied);
      return next();
    }
    res.locals.cspNonce = randomBytes(16).toString("base64");
    pageHeaders(req, res, next);
  };
  return { middleware, proxied };
}

/**
 * The CSP of a page whose inline scripts are known in advance: the page policy with their SHA-256
 * hashes (base64) in place of the nonce. It replaces the nonce policy securityHeaders set; the
 * header is the same for every response.
 */
export function hashedScriptsPolicy(config: GatewayConfig, scriptHashes: string[]): RequestHandler {
  return contentSecurityPolicy({
    useDefaults: false,
    directives: pageDirectives(
      config,
      scriptHashes.map((hash) => `'sha256-${hash}'`),
    ),
  });
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF defence on top of SameSite=Strict: a state-changing request that a browser marks as coming
 * from another site is refused before it reaches anything else. The configured public origin counts
 * as our own, so a deployment behind a TLS proxy that is not trusted for X-Forwarded-Proto works.
 */
export function isCrossSiteWrite(
  config: GatewayConfig,
  method: string | undefined,
  headers: IncomingHttpHeaders,
  protocol: string,
): boolean {
  if (!STATE_CHANGING.has(method ?? "")) return false;
  const origin = headers.origin;
  if (headers["sec-fetch-site"] === "cross-site") return true;
  return origin !== undefined && origin !== config.publicOrigin && origin !== `${protocol}://${headers.host}`;
}

export function rejectCrossSiteWrites(config: GatewayConfig): RequestHandler {
  return (req, res, next) => {
    if (isCrossSiteWrite(config, req.method, req.headers, req.protocol)) {
      return sendError(res, 403, GATEWAY_ERRORS.crossSite);
    }
    next();
  };
}
