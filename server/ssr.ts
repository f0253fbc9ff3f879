/**
 * Static assets and the streaming React Router handler. Loaders get the verified session, the CSP
 * nonce and public configuration through a RouterContextProvider.
 */
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express, { type RequestHandler, type Router } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { gatewayContext } from "../client/lib/gateway-context.ts";
import type { GatewayConfig } from "./config.ts";
import { nonceOf } from "./security.ts";
import { sessionOf } from "./session.ts";

export type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

/** The production build: hashed files under /assets never change, so they are cached for a year. */
export function staticAssets(config: GatewayConfig): Router {
  const clientDir = path.resolve(config.buildDir, "client");
  const router = express.Router();
  router.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  router.use(express.static(clientDir, { maxAge: "1h", index: false }));
  return router;
}

export function productionBuild(config: GatewayConfig): () => Promise<ServerBuild> {
  const entry = path.resolve(config.buildDir, "server", "index.js");
  return () => import(entry) as Promise<ServerBuild>;
}

export function ssrHandler(config: GatewayConfig, build: BuildSource): RequestHandler {
  return createRequestHandler({
    build,
    mode: config.env === "production" ? "production" : "development",
    getLoadContext(req, res) {
      const context = new RouterContextProvider();
      const session = sessionOf(res);
      // A signed-in page holds that user's data: no shared or back/forward cache may keep it.
      if (session) res.set("Cache-Control", "no-store");
      context.set(gatewayContext, {
        nonce: nonceOf(res),
        requestId: String(req.id),
        productName: config.productName,
        backendUrl: config.backendUrl,
        firebase: config.firebase,
        session: session ? { token: session.token, user: session.user } : null,
      });
      return context;
    },
  });
}
