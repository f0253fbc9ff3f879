/**
 * Browser tests run against the real product as `npm start` runs it (production mode, local mode
 * on): the production bundle, the Firebase Auth emulator, the backend on a fresh PGlite folder and
 * the gateway, each on a free port; and a fake Azure DevOps (tests/support/fake-azure-devops.ts),
 * which the backend may call over http.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { claimPort } from "../../scripts/lib/ports.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { startFakeAzureDevOps } from "../support/fake-azure-devops.ts";

declare module "vitest" {
  export interface ProvidedContext {
    gatewayUrl: string;
    emulatorHost: string;
    projectId: string;
    azureDevOps: {
      organizationUrl: string;
      project: string;
      personalAccessToken: string;
      repositoryNames: string[];
    };
  }
}

export default async function setup(project: TestProject) {
  ensureBuild();
  const workDir = mkdtempSync(path.join(tmpdir(), "argus-e2e-"));
  const logFile = path.join(workDir, "services.log");
  const azureDevOps = await startFakeAzureDevOps();
  let stack: Awaited<ReturnType<typeof startStack>>;
  try {
    stack = await startStack({
      gatewayPort: await claimPort(),
      backendPort: await claimPort(),
      emulatorPort: await claimPort(),
      dataDir: path.join(workDir, "data"),
      logFile,
      env: { LOG_LEVEL: "info", AZURE_DEVOPS_ALLOW_HTTP: "true" },
    });
  } catch (error) {
    console.error(readFileSync(logFile, "utf8").slice(-5000));
    await azureDevOps.close();
    throw error;
  }
  project.provide("gatewayUrl", stack.gatewayUrl);
  project.provide("emulatorHost", stack.emulatorHost);
  project.provide("projectId", stack.projectId);
  const { organizationUrl, project: azureProject, personalAccessToken, repositoryNames } = azureDevOps;
  project.provide("azureDevOps", {
    organizationUrl,
    project: azureProject,
    personalAccessToken,
    repositoryNames,
  });
  return async () => {
    await stack.stop();
    await azureDevOps.close();
  };
}
