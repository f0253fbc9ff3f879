/**
 * The gateway process: read the config, build the app, listen, and shut down gracefully.
 * With --dev, Vite serves the client with hot reload; otherwise the production build is used.
 */
import { type AppDependencies, createApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { startServer } from "./listen.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const deps: AppDependencies = {};
if (process.argv.includes("--dev")) {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  deps.pages = () => devServer.ssrLoadModule("/client/page-handler.ts") as never;
  deps.assets = devServer.middlewares;
}

const { app, logger, readiness } = createApp(config, deps);
const running = await startServer(app, { ...config, readiness, logger });
logger.info(`${config.productName} gateway listening at ${running.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, async () => {
    logger.info(`${signal} received, shutting down`);
    await running.shutdown();
    process.exit(0);
  });
}
