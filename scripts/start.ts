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
import { PortTakenError } from "./lib/ports.ts";
import { type RunningStack, startStack } from "./lib/stack.ts";

loadEnvFile();
const dev = process.argv.includes("--dev");
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

// Ctrl-C while the stack is still starting exits at once: the services already launched get a
// signal as this process exits (scripts/lib/process-group.ts). Once it is up, they are stopped in turn.
let stack: RunningStack | undefined;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping...");
    await stack?.stop();
    process.exit(0);
  });
}

if (!dev) ensureBuild();
try {
  stack = await startStack({
    dev,
    gatewayPort: port("PORT", 3000),
    backendPort: port("BACKEND_PORT", 3001),
    emulatorPort: configuredEmulatorPort(),
    dataDir: process.env.DATA_DIR ?? path.resolve(".data"),
  });
} catch (error) {
  // The services' own output is above; one line says what stopped the start.
  console.error(
    error instanceof PortTakenError
      ? `${error.message}. Is the product already running? Stop it, or choose other ports with PORT, BACKEND_PORT and FIREBASE_AUTH_EMULATOR_PORT (in .env too).`
      : `Could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}

stack.serviceExited.then(async ({ service, code, signal }) => {
  if (stopping) return;
  stopping = true;
  console.error(
    `\nThe ${service} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping the rest.`,
  );
  await stack?.stop();
  process.exit(1);
});

console.log(
  `Sign in with a demo account: npm run demo-account (Firebase Auth emulator at ${stack.emulatorHost})`,
);
console.log(stack.gatewayUrl);
