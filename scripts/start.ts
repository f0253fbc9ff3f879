/**
 * `npm start`: build the production bundle if it is missing or stale, start the emulator, the backend
 * and the gateway (production mode, local mode on), print the gateway's URL last, and stop
 * everything on Ctrl-C. Reads .env first, so PORT, BACKEND_PORT and DATA_DIR may come from there.
 * `npm run dev` (--dev): the same in development mode, with Vite's dev server and hot reload.
 */
import path from "node:path";
import { loadEnvFile } from "../shared/node/env-file.ts";
import { ensureBuild } from "./lib/build.ts";
import { configuredEmulatorPort } from "./lib/firebase-emulator.ts";
import { startStack } from "./lib/stack.ts";

loadEnvFile();
const dev = process.argv.includes("--dev");
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

if (!dev) ensureBuild();
const stack = await startStack({
  dev,
  gatewayPort: port("PORT", 3000),
  backendPort: port("BACKEND_PORT", 3001),
  emulatorPort: configuredEmulatorPort(),
  dataDir: process.env.DATA_DIR ?? path.resolve(".data"),
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping...");
    await stack.stop();
    process.exit(0);
  });
}

console.log(
  `Sign in with a demo account: npm run demo-account (Firebase Auth emulator at ${stack.emulatorHost})`,
);
console.log(stack.gatewayUrl);
