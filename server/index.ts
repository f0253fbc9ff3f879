/**
 * The gateway process: read .env and the config, build the app, listen, and shut down gracefully.
 * With --dev, Vite serves the client with hot reload; otherwise the production build is used.
 */
import { runtimeSummary } from "../shared/node/env.ts";
import { loadEnvFile } from "../shared/node/env-file.ts";
import { shutDownOnSignals, startServer } from "../shared/node/http-server.ts";
import type { AppDependencies } from "./app.ts";
import { ConfigError, type GatewayConfig, loadConfig } from "./config.ts";
import { collectWhenIdle } from "./idle-collection.ts";

let config: GatewayConfig;
try {
  loadEnvFile();
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Imported only now: React picks its development or production build from NODE_ENV when first
// loaded, and NODE_ENV may come from .env.
const { createApp } = await import("./app.ts");

const deps: AppDependencies = {};
if (process.argv.includes("--dev")) {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  deps.pages = () => devServer.ssrLoadModule("/client/page-handler.ts") as never;
  deps.assets = devServer.middlewares;
}

const { app, logger, readiness } = createApp(config, deps);
// The launcher exposes V8's gc (scripts/lib/stack.ts): a burst's garbage goes once the gateway is
// idle. The "last resort" collection also hands the freed pages back to the system; a plain one
// left them resident (docs/performance.md, eighth round).
const { gc } = globalThis as { gc?: (options: { type: "major"; flavor: "last-resort" }) => void };
const idle = collectWhenIdle(gc && (() => gc({ type: "major", flavor: "last-resort" })));
const running = await startServer(
  (req, res) => {
    idle.served();
    app(req, res);
  },
  { ...config, readiness, logger },
);
const emulatorHost = config.firebase.emulatorUrl ? new URL(config.firebase.emulatorUrl).host : undefined;
logger.info(
  { url: running.url, publicOrigin: config.publicOrigin, nodeEnv: config.env, localMode: config.localMode },
  `${config.productName} gateway listening at ${running.url} (${runtimeSummary({ nodeEnv: config.env, localMode: config.localMode, emulatorHost })})`,
);
// Local mode keeps e-mails (verification, password reset) in an outbox instead of sending them.
if (config.localMode)
  logger.info({ outbox: `${config.publicOrigin}/outbox` }, `Outbox: ${config.publicOrigin}/outbox`);
shutDownOnSignals(running, logger);
