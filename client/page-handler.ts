/**
 * The entry of the app's server build (vite.config.ts): the React Router request handler, built
 * together with the routes and the context key they read, so all three share one module graph. The
 * gateway mounts what this exports and supplies each request's context (server/pages.ts).
 */

import * as build from "virtual:react-router/server-build";
import { createRequestHandler } from "@react-router/express";
import { RouterContextProvider } from "react-router";
import type { PageHandlerModule } from "../shared/gateway-context.ts";
import { nodeHttpFetch, setBackendTransport } from "./lib/backend-transport.server";
import { gatewayContext } from "./lib/gateway-context";

export const createPageHandler: PageHandlerModule["createPageHandler"] = ({ mode, contextFor }) => {
  // The loaders' calls to the backend: kept-alive node:http rather than the global fetch.
  setBackendTransport(nodeHttpFetch());
  return createRequestHandler({
    build,
    mode,
    getLoadContext(req, res) {
      const context = new RouterContextProvider();
      context.set(gatewayContext, contextFor(req, res));
      return context;
    },
  });
};
