/**
 * Starts the backend: `node backend/index.ts`. Configuration comes from the environment and .env
 * (config.ts). SIGTERM / SIGINT stop accepting connections, let running requests finish, then
 * close the database.
 */
import { runtimeSummary } from "../shared/node/env.ts";
import { loadEnvFile } from "../shared/node/env-file.ts";
import { shutDownOnSignals, startServer } from "../shared/node/http-server.ts";
import { createLogger } from "../shared/node/logging.ts";
import { BACKEND_KEEP_ALIVE_MS } from "../shared/node/stale-socket.ts";
import { createBackend } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";

/** How long running requests get to finish on shutdown before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  const logger = createLogger({ name: "backend", level: config.logLevel });
  const backend = await createBackend(config, { logger });
  const running = await startServer(backend.app, {
    host: config.host,
    port: config.port,
    shutdownTimeoutMs: SHUTDOWN_GRACE_MS,
    logger,
    keepAliveTimeoutMs: BACKEND_KEEP_ALIVE_MS,
    onClosed: () => backend.close(),
  }).catch(async (error: unknown) => {
    await backend.close();
    throw error;
  });
  const summary = runtimeSummary({
    nodeEnv: config.nodeEnv,
    localMode: config.localMode,
    emulatorHost: config.firebase.authEmulatorHost,
  });
  logger.info(
    {
      url: running.url,
      database: config.database.kind,
      signing: backend.tokens.alg,
      mail: config.mail.transport.kind,
      nodeEnv: config.nodeEnv,
      localMode: config.localMode,
    },
    `backend listening at ${running.url} (${summary})`,
  );
  shutDownOnSignals(running, logger);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error("Backend failed to start:", error);
  }
  process.exit(1);
});
