/**
 * Builds the production bundle when it is missing or older than any of its sources, so `npm start`
 * and the browser tests never serve a stale client.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = [
  "client",
  "shared",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
  // The build's own plugin (vite.config.ts).
  "scripts/lib/precompressed-assets.ts",
];
const BUILD_ENTRY = path.join(ROOT, "build", "server", "index.js");

function newestChange(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  return newest;
}

function buildIsStale(): boolean {
  if (!existsSync(BUILD_ENTRY)) return true;
  const built = statSync(BUILD_ENTRY).mtimeMs;
  return SOURCES.map((source) => path.join(ROOT, source))
    .filter((source) => existsSync(source))
    .some((source) => newestChange(source) > built);
}

export function ensureBuild(log: (line: string) => void = console.log): void {
  if (!buildIsStale()) return;
  log("Building the production bundle...");
  const result = spawnSync(path.join(ROOT, "node_modules", ".bin", "react-router"), ["build"], {
    cwd: ROOT,
    // Vite builds React's development bundle when NODE_ENV says development (from a .env, say).
    env: { ...process.env, NODE_ENV: "production" },
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("react-router build failed");
}
