/**
 * Listening and graceful shutdown. On shutdown /readyz turns 503 at once, new connections are
 * refused, in-flight requests (proxied calls and streamed pages) finish, and whatever is still open
 * after the timeout is cut so the process always exits in time.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import type { Logger } from "pino";
import type { Readiness } from "./health.ts";

export interface RunningServer {
  server: Server;
  url: string;
  shutdown(): Promise<void>;
}

export async function startServer(
  app: Express,
  options: { host: string; port: number; shutdownTimeoutMs: number; readiness: Readiness; logger: Logger },
): Promise<RunningServer> {
  const server = createServer(app);
  server.listen(options.port, options.host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;

  let closing: Promise<void> | undefined;
  function shutdown(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      options.readiness.shuttingDown = true;
      const deadline = setTimeout(() => {
        options.logger.warn("shutdown timeout reached; closing remaining connections");
        server.closeAllConnections();
      }, options.shutdownTimeoutMs);
      deadline.unref();
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  }

  return { server, url, shutdown };
}
