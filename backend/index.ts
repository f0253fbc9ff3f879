/**
 * Starts the backend: `node backend/index.ts`. Configuration comes from the environment
 * (config.ts). SIGTERM / SIGINT stop accepting connections, let running requests finish, then
 * close the database.
 */
import { createServer } from "node:http";
import { createLogger } from "../shared/logging.ts";
import { createBackend } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";

/** How long running requests get to finish on shutdown before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ name: "backend", level: config.logLevel });
  const backend = await createBackend(config, { logger });
  const server = createServer(backend.app);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await backend.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info(
    { url: `http://${config.host}:${port}`, database: config.database.kind, signing: backend.tokens.alg },
    "backend listening",
  );

  let shutdown: Promise<void> | undefined;
  const stop = async (signal: string) => {
    logger.info({ signal }, "shutting down");
    server.closeIdleConnections();
    const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(forced);
    await backend.close();
    logger.info("stopped");
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      // A second signal waits for the shutdown already under way.
      shutdown ??= stop(signal);
      shutdown.then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error("Backend failed to start:", error);
  }
  process.exit(1);
});
