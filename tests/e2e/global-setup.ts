/**
 * Browser tests run against the real product as `npm start` runs it (production mode, local mode
 * on): the production bundle, the Firebase Auth emulator, the backend on a fresh PGlite folder and
 * the gateway, each on a free port; and a fake Azure DevOps (tests/support/fake-azure-devops.ts),
 * which the backend may call over http.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { startStackIn } from "../../scripts/lib/stack.ts";
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
  const azureDevOps = await startFakeAzureDevOps();
  let stack: Awaited<ReturnType<typeof startStackIn>>;
  try {
    stack = await startStackIn(workDir, {
      LOG_LEVEL: "info",
      AZURE_DEVOPS_ALLOW_HTTP: "true",
      // The fake Azure DevOps listens on loopback.
      AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true",
    });
  } catch (error) {
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
