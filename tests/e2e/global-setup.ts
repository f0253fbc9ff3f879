/**
 * Browser tests run against the real product as `npm start` runs it (production mode, local mode
 * on): the production bundle, the Firebase Auth emulator, the backend on a fresh PGlite folder and
 * the gateway, each on a free port.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { claimPort } from "../../scripts/lib/ports.ts";
import { startStack } from "../../scripts/lib/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    gatewayUrl: string;
    emulatorHost: string;
    projectId: string;
  }
}

export default async function setup(project: TestProject) {
  ensureBuild();
  const workDir = mkdtempSync(path.join(tmpdir(), "argus-e2e-"));
  const logFile = path.join(workDir, "services.log");
  let stack: Awaited<ReturnType<typeof startStack>>;
  try {
    stack = await startStack({
      gatewayPort: await claimPort(),
      backendPort: await claimPort(),
      emulatorPort: await claimPort(),
      dataDir: path.join(workDir, "data"),
      logFile,
      env: { LOG_LEVEL: "info" },
    });
  } catch (error) {
    console.error(readFileSync(logFile, "utf8").slice(-5000));
    throw error;
  }
  project.provide("gatewayUrl", stack.gatewayUrl);
  project.provide("emulatorHost", stack.emulatorHost);
  project.provide("projectId", stack.projectId);
  return () => stack.stop();
}
