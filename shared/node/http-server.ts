/**
 * Listening and graceful shutdown, for the gateway and the backend. On shutdown readiness turns off
 * at once (/readyz answers 503), new connections are refused, keep-alive connections close as soon
 * as they are idle, in-flight requests (proxied calls, streamed pages) finish, and whatever is still open after the
 * timeout is cut, so the process always exits in time. Then `onClosed` releases what the server used.
 */
import { once } from "node:events";
import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "./logging.ts";

export interface ServerOptions {
  host: string;
  port: number;
  shutdownTimeoutMs: number;
  logger: Logger;
  /** Flipped when shutdown begins, for the readiness probe. */
  readiness?: { shuttingDown: boolean };
  /** Runs once the last connection is closed: close databases and clients here. */
  onClosed?: () => Promise<void>;
  /** How long an idle keep-alive connection stays open; Node's default (5 s) when not given. */
  keepAliveTimeoutMs?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Idempotent: every call gets the same shutdown. */
  shutdown(): Promise<void>;
}

/** `http://host:port`, with an IPv6 host in brackets. */
export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export async function startServer(handler: RequestListener, options: ServerOptions): Promise<RunningServer> {
  const server = createServer(handler);
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  let closing: Promise<void> | undefined;
  // Node keeps a keep-alive connection open after its last response even while closing; close it
  // as soon as it goes idle instead of waiting for the client's or our keep-alive timeout.
  server.on("request", (_req, res: ServerResponse) => {
    res.once("close", () => {
      if (closing) server.closeIdleConnections();
    });
  });
  server.listen(options.port, options.host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  function shutdown(): Promise<void> {
    closing ??= (async () => {
      if (options.readiness) options.readiness.shuttingDown = true;
      const deadline = setTimeout(() => {
        options.logger.warn("shutdown timeout reached; closing remaining connections");
        server.closeAllConnections();
      }, options.shutdownTimeoutMs);
      deadline.unref();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      clearTimeout(deadline);
      await options.onClosed?.();
    })();
    return closing;
  }

  return { server, url: httpUrl(options.host, port), shutdown };
}

/**
 * SIGTERM and SIGINT start the shutdown once; a repeated signal waits for the one under way instead
 * of killing the process halfway. Exits 0 when stopped cleanly, 1 if releasing resources failed.
 */
export function shutDownOnSignals(running: RunningServer, logger: Logger): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      running.shutdown().then(
        () => {
          logger.info("stopped");
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}
