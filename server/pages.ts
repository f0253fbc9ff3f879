/**
 * Static files and the streamed pages. The page handler comes from the app's server build
 * (client/page-handler.ts, loaded at run time, never imported from client/), so the gateway and the
 * routes do not hold two copies of one module. The gateway supplies each request's context: the
 * verified session, the CSP nonce, the request's logger and public configuration. Guest pages are
 * rendered once and served from memory to visitors without a session (server/guest-pages.ts).
 */
import path from "node:path";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import expressStaticGzip from "express-static-gzip";
import type { GatewayContext, PageHandlerModule } from "../shared/gateway-context.ts";
import type { GatewayConfig } from "./config.ts";
import { guestPageCache } from "./guest-pages.ts";
import { nonceOf } from "./security.ts";
import { sessionConfirmationOf, sessionOf, sessionUndecided } from "./session.ts";

export type PageModuleSource = () => Promise<PageHandlerModule>;

/** The production build: hashed files under /assets never change, so they are cached for a year. */
export function staticAssets(config: GatewayConfig): Router {
  const assetsDir = path.resolve(config.buildDir, "client", "assets");
  const router = express.Router();
  // The build puts every client file under /assets (hashed names, never changed in place). Only
  // that prefix is looked up on disk, so pages and proxied calls never wait on a stat(). The build
  // also wrote each script and stylesheet compressed (.br, .gz): a browser gets the variant it
  // accepts, Brotli first, with nothing to compress per request; the compression middleware leaves
  // an answer that already has its encoding alone (docs/decisions/054-precompressed-assets.md).
  router.use(
    "/assets",
    expressStaticGzip(assetsDir, {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", index: false },
    }),
  );
  // Nothing here is for search engines: every page is an organisation's or a way into one. Answered
  // here, or the unknown path would be sent home (and a crawler would index the sign-in page).
  router.get("/robots.txt", (_req, res) => {
    res.type("text/plain").set("Cache-Control", "public, max-age=86400").send("User-agent: *\nDisallow: /\n");
  });
  // A file the build does not have is not found, rather than an unknown path sent home: a tab
  // opened before an update asks for the old build's files and must learn they are gone.
  router.use("/assets", (_req, res) => {
    res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found");
  });
  return router;
}

export function productionPages(config: GatewayConfig): PageModuleSource {
  const entry = path.resolve(config.buildDir, "server", "index.js");
  let loaded: Promise<PageHandlerModule> | undefined;
  return () => {
    loaded ??= import(entry) as Promise<PageHandlerModule>;
    return loaded;
  };
}

/** Shown when a page needs to know who is signed in and the session keys cannot be had. */
const UNDECIDED_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Temporarily unavailable</title></head><body><main><h1>Temporarily unavailable</h1><p>We could not check your session just now. Please try again in a moment.</p></main></body></html>`;

export function pageHandler(config: GatewayConfig, source: PageModuleSource): RequestHandler {
  const contextFor = (req: Request, res: Response): GatewayContext => {
    const session = sessionOf(res);
    // A signed-in page holds that user's data: no shared or back/forward cache may keep it.
    if (session) res.set("Cache-Control", "no-store");
    return {
      nonce: nonceOf(res),
      requestId: String(req.id),
      productName: config.productName,
      backendUrl: config.backendUrl,
      firebase: config.firebase,
      localMode: config.localMode,
      session: session
        ? { token: session.token, user: session.user, confirmation: sessionConfirmationOf(res) }
        : null,
      log: req.log,
    };
  };
  const mode = config.env === "production" ? "production" : "development";
  // Guest pages are rendered once per loaded build (server/guest-pages.ts); in development, where
  // Vite hands out changed modules and client files, every request renders.
  const cacheGuestPages = config.env !== "development";
  let current:
    | { module: PageHandlerModule; handler: RequestHandler; guestPages?: ReturnType<typeof guestPageCache> }
    | undefined;

  return async (req: Request, res: Response, next: NextFunction) => {
    if (sessionUndecided(res)) {
      res
        .status(503)
        .set({ "Cache-Control": "no-store", "Retry-After": "5" })
        .type("html")
        .send(UNDECIDED_PAGE);
      return;
    }
    try {
      const module = await source();
      // Vite's dev server hands out a new module after an edit; production loads it once.
      if (current?.module !== module)
        current = {
          module,
          handler: module.createPageHandler({ mode, contextFor }),
          guestPages: cacheGuestPages ? guestPageCache(config) : undefined,
        };
      if (await current.guestPages?.serve(req, res, current.handler)) return;
      await current.handler(req, res, next);
    } catch (error) {
      next(error);
    }
  };
}
