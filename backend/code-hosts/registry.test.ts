import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ProjectRow } from "../review/pipeline/pipeline.ts";
import { AZURE_DEVOPS_INTEGRATION, GITHUB_INTEGRATION } from "./catalogue.ts";
import type { ConnectConfig } from "./code-host.ts";
import { CODE_HOSTS, commitUrlOf, installationFlow, reviewHostFor } from "./registry.ts";

function project(integration: string, properties: Partial<ProjectRow["properties"]> = {}): ProjectRow {
  return {
    id: "project-1",
    org_id: "org-1",
    name: "shop",
    integration_key: "42",
    integration_name: integration,
    integration_type: "git",
    external_link: "https://example.test/acme/shop",
    active: true,
    webhook_active: true,
    properties: { full_name: "acme/shop", ...properties } as ProjectRow["properties"],
    external_id: "1",
    created_at: new Date(),
  };
}

const claimant = (row: ProjectRow) => CODE_HOSTS.find((host) => host.claims(row))?.name;

describe("the code hosts' registry", () => {
  it("gives each project to the host that reviews it, the sandbox's before GitHub's", () => {
    expect(claimant(project(GITHUB_INTEGRATION, { sandbox: true }))).toBe("sandbox");
    expect(claimant(project(GITHUB_INTEGRATION))).toBe("github");
    expect(claimant(project(AZURE_DEVOPS_INTEGRATION))).toBe("azure-devops");
    expect(claimant(project("gitlab"))).toBeUndefined();
  });

  it("links a commit to its page on the host that has one", () => {
    const sha = "4f2a9c1e7b3d5a6f8e0c2b4d6a8f0e1c3b5d7a9f";
    expect(commitUrlOf(project(GITHUB_INTEGRATION), sha)).toBe(
      `https://example.test/acme/shop/commit/${sha}`,
    );
    expect(
      commitUrlOf(
        { ...project(AZURE_DEVOPS_INTEGRATION), external_link: "https://dev.azure.com/acme/shop/_git/web" },
        sha,
      ),
    ).toBe(`https://dev.azure.com/acme/shop/_git/web/commit/${sha}`);
    // The sandbox's repositories are not on GitHub, whatever their links say.
    expect(commitUrlOf(project(GITHUB_INTEGRATION, { sandbox: true }), sha)).toBeNull();
    expect(commitUrlOf(project("gitlab"), sha)).toBeNull();
  });

  it("builds the claiming host's review port, and refuses a project no host claims", async () => {
    const built: string[][] = [];
    const hostFor = reviewHostFor({
      db: undefined as never,
      secrets: undefined as never,
      logger: undefined as never,
      github: (installationId, fullName) => {
        built.push([installationId, fullName]);
        return {} as never;
      },
    });
    await hostFor(project(GITHUB_INTEGRATION));
    expect(built).toEqual([["42", "acme/shop"]]);
    await expect(hostFor(project("gitlab"))).rejects.toThrow("No review host for integration gitlab");
  });

  it("connects GitHub's integration through the App when one is configured, else through the sandbox", async () => {
    const config: ConnectConfig = {
      publicOrigin: "http://127.0.0.1:3000",
      secrets: { key: Buffer.alloc(32, 1), previousKeys: [], keyFile: undefined },
      github: { apiUrl: "http://127.0.0.1:1", oauthUrl: "http://127.0.0.1:1" },
    };
    expect((await installationFlow(config)).kind).toBe("sandbox");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const app = {
      id: "1",
      privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
      clientId: "client",
      clientSecret: "secret",
    };
    expect((await installationFlow({ ...config, github: { ...config.github, app } })).kind).toBe(
      "github-app",
    );
  });
});
