/**
 * `npm start`: build the production bundle if it is missing or stale, start the emulator, the backend
 * and the gateway, print the gateway's URL last, and stop everything on Ctrl-C.
 * `npm run dev` (--dev): the same with Vite's dev server and hot reload instead of the bundle.
 */
import path from "node:path";
import { ensureBuild } from "./lib/build.ts";
import { startStack } from "./lib/stack.ts";

const dev = process.argv.includes("--dev");
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

if (!dev) ensureBuild();
const stack = await startStack({
  dev,
  gatewayPort: port("PORT", 3000),
  backendPort: port("BACKEND_PORT", 3001),
  emulatorPort: port("FIREBASE_AUTH_EMULATOR_PORT", 9099),
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
