import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INSTALLATION,
  type Integration,
  integrationResponseSchema,
  integrationSetupResponseSchema,
  integrationsResponseSchema,
  projectsResponseSchema,
} from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { PAGE_SIZE_MAX } from "../../shared/contract/paging.ts";
import { sandboxConnectOf, sandboxInstallationOf } from "../../shared/contract/sandbox.ts";
import { SANDBOX_REPOSITORIES } from "../../shared/sandbox-samples.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../../tests/support/fake-azure-devops.ts";
import {
  type FakeGitHub,
  fakeRepository,
  gitHubAppEnv,
  startFakeGitHub,
} from "../../tests/support/fake-github.ts";
import { bearerCalls, TEST_BACKEND_ENV, testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";

const WRONG_PAT = "azure-pat-that-must-never-come-back-0123456789";

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  async function start(env: Record<string, string>) {
    backend = await backends.start(env);
  }
  const stop = backends.stop;
  const { get, post } = bearerCalls(() => backend.app);

  async function integration(token: string, name: string): Promise<Integration> {
    const response = await get(token, API_PATHS.integration(name));
    expect(response.status).toBe(200);
    return v.parse(integrationResponseSchema, response.body).data;
  }
  async function projectNames(token: string): Promise<string[]> {
    const response = await get(token, API_PATHS.projects);
    return v.parse(projectsResponseSchema, response.body).data.projects.map((project) => project.name);
  }
  /** The installation id and signed code of the account's sandbox Connect link. */
  async function sandboxConnect(token: string) {
    const connect = sandboxConnectOf((await integration(token, "github")).links.oauth_url);
    if (!connect) throw new Error("no sandbox Connect link");
    return connect;
  }
  const NOT_PROVEN = { error: INSTALLATION.notProven };

  describe("the catalogue and form setup (sandbox code host)", () => {
    beforeAll(() => start({}));
    afterAll(stop);

    it("lists GitHub and Azure DevOps, neither active, each with what its screen needs", async () => {
      const { token } = await signedInAccount(backend, "catalogue");
      const response = await get(token, API_PATHS.integrations);
      expect(response.status).toBe(200);
      const { success, data } = v.parse(integrationsResponseSchema, response.body);
      expect(success).toBe(true);
      expect(data.map((entry) => [entry.name, entry.isActive, entry.activeIntegration])).toEqual([
        ["github", false, null],
        ["azure-devops", false, null],
      ]);
      const [github, azure] = data as [Integration, Integration];
      expect(github.fields).toEqual([]);
      expect(github.links.icon).toMatch(/\.svg$/);
      // Connect leads to the sandbox's own install page, with a new sandbox installation id.
      const install = new URL(github.links.oauth_url ?? "");
      expect(install.origin + install.pathname).toBe(`${TEST_BACKEND_ENV.PUBLIC_ORIGIN}/sandbox/install`);
      expect([...install.searchParams.keys()]).toEqual(["installation_id", "code"]);
      expect(install.searchParams.get("installation_id")).toMatch(/^sandbox-[0-9a-f]+$/);
      expect(install.searchParams.get("code")).toMatch(/^\d+\.[\w-]{43}$/);
      expect(sandboxInstallationOf(github.links.oauth_url)).toBe(install.searchParams.get("installation_id"));
      expect(azure.links.oauth_url).toBeUndefined();
      expect(azure.fields.map((field) => [field.key, field.type])).toEqual([
        ["organization_url", "url"],
        ["project", "text"],
        ["personal_access_token", "password"],
      ]);
      for (const field of azure.fields) expect(field.label && field.hint).toBeTruthy();
    });

    it("answers one integration by name, and 404 for an unknown one", async () => {
      const { token } = await signedInAccount(backend, "by-name");
      expect((await integration(token, "azure-devops")).display_name).toBe("Azure DevOps");
      const unknown = await get(token, API_PATHS.integration("gitlab"));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: "Integration not found" });
    });

    it("refuses a setup with a missing, unknown or malformed field, storing nothing", async () => {
      const { token } = await signedInAccount(backend, "azure-bad");
      const good = {
        organization_url: "https://dev.azure.com/acme",
        project: "P",
        personal_access_token: "t",
      };
      for (const body of [
        { organization_url: good.organization_url, project: "P" },
        { ...good, extra: "x" },
        { ...good, organization_url: "http://dev.azure.com/acme" },
        { ...good, project: "   " },
        { ...good, project: "p".repeat(3000) },
        [good],
      ]) {
        const response = await post(token, API_PATHS.integrationSetup("azure-devops"), body);
        expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(response.body.code).toBe("INVALID_REQUEST");
      }
      expect((await integration(token, "azure-devops")).isActive).toBe(false);
      expect((await post(token, API_PATHS.integrationSetup("gitlab"), good)).status).toBe(404);
    });

    it("connects the sandbox: imports the sample repositories as sandbox projects of the caller's organisation", async () => {
      const mine = await signedInAccount(backend, "sandbox-mine");
      const theirs = await signedInAccount(backend, "sandbox-theirs");
      const connect = await sandboxConnect(mine.token);
      const { installationId } = connect;

      const response = await post(mine.token, API_PATHS.githubSetup, { org_id: mine.orgId, ...connect });
      expect(response.status).toBe(200);
      expect(v.parse(integrationSetupResponseSchema, response.body).success).toBe(true);

      const github = await integration(mine.token, "github");
      expect(github.isActive).toBe(true);
      expect(github.activeIntegration).toEqual({
        integration_key: installationId,
        is_active: true,
        properties: {},
      });
      const projects = v.parse(
        projectsResponseSchema,
        (await get(mine.token, `${API_PATHS.projects}?integrationType=git&integrationName=github`)).body,
      ).data.projects;
      expect(projects.map((project) => project.name).sort()).toEqual(
        SANDBOX_REPOSITORIES.map((repository) => repository.name).sort(),
      );
      const webApp = projects.find((project) => project.name === "web-app");
      expect(webApp).toEqual({
        id: expect.any(String),
        name: "web-app",
        integration_key: installationId,
        integration_name: "github",
        integration_type: "git",
        external_link: "https://github.com/argus-sandbox/web-app",
        active: true,
        webhook_active: false,
        properties: {
          full_name: "argus-sandbox/web-app",
          private: true,
          description: "The customer-facing web application",
          default_branch: "main",
          fork: false,
          sandbox: true,
        },
      });

      expect(await projectNames(theirs.token)).toEqual([]);
      expect((await integration(theirs.token, "github")).isActive).toBe(false);
    });

    it("is idempotent: connecting the sandbox again duplicates no repository", async () => {
      const { token, orgId } = await signedInAccount(backend, "sandbox-twice");
      const first = await sandboxConnect(token);
      const second = await sandboxConnect(token);
      expect(second.installationId).not.toBe(first.installationId);
      for (const connect of [first, first, second]) {
        const response = await post(token, API_PATHS.githubSetup, { org_id: orgId, ...connect });
        expect(response.status).toBe(200);
      }
      const projects = v.parse(projectsResponseSchema, (await get(token, API_PATHS.projects)).body).data
        .projects;
      expect(projects).toHaveLength(SANDBOX_REPOSITORIES.length);
      expect(new Set(projects.map((project) => project.integration_key))).toEqual(
        new Set([second.installationId]),
      );
    });

    it("refuses another organisation's org_id, and any installation without its own Connect link's code", async () => {
      const mine = await signedInAccount(backend, "sandbox-refused");
      const theirs = await signedInAccount(backend, "sandbox-owner");
      const connect = await sandboxConnect(mine.token);

      const foreign = await post(mine.token, API_PATHS.githubSetup, { org_id: theirs.orgId, ...connect });
      expect(foreign.status).toBe(403);
      // A code is made for one installation id: not another, sandbox or not.
      for (const installationId of [12345, "sandbox-abc"]) {
        const other = await post(mine.token, API_PATHS.githubSetup, {
          org_id: mine.orgId,
          installationId,
          code: connect.code,
        });
        expect(other.status, String(installationId)).toBe(403);
        expect(other.body).toEqual(NOT_PROVEN);
      }
      for (const code of ["sandbox", `${Date.now() + 60_000}.${"A".repeat(43)}`, `${connect.code}x`]) {
        const forged = await post(mine.token, API_PATHS.githubSetup, {
          org_id: mine.orgId,
          installationId: connect.installationId,
          code,
        });
        expect(forged.status, code).toBe(403);
        expect(forged.body).toEqual(NOT_PROVEN);
      }
      expect(await projectNames(mine.token)).toEqual([]);
      expect(await projectNames(theirs.token)).toEqual([]);
    });

    it("keeps a sandbox installation to the organisation and user whose Connect link made it", async () => {
      const victim = await signedInAccount(backend, "sandbox-victim");
      const attacker = await signedInAccount(backend, "sandbox-attacker");
      const victims = await sandboxConnect(victim.token);
      const attackers = await sandboxConnect(attacker.token);

      // The victim's installation id, with no code, with the attacker's own code, and with the
      // victim's code itself (copied from a shared link): none is the attacker's to connect.
      for (const claim of [
        { installationId: victims.installationId, code: attackers.code },
        { installationId: victims.installationId, code: victims.code },
      ]) {
        const response = await post(attacker.token, API_PATHS.githubSetup, {
          org_id: attacker.orgId,
          ...claim,
        });
        expect(response.status).toBe(403);
        expect(response.body).toEqual(NOT_PROVEN);
      }
      const bare = await post(attacker.token, API_PATHS.githubSetup, {
        org_id: attacker.orgId,
        installationId: victims.installationId,
      });
      expect(bare.status).toBe(400);
      expect(await projectNames(attacker.token)).toEqual([]);
      expect((await integration(attacker.token, "github")).isActive).toBe(false);

      // Nothing was taken, so the victim's own setup is not blocked (no 409).
      const own = await post(victim.token, API_PATHS.githubSetup, { org_id: victim.orgId, ...victims });
      expect(own.status).toBe(200);
      expect((await projectNames(victim.token)).length).toBe(SANDBOX_REPOSITORIES.length);
    });

    it("refuses a malformed installation body", async () => {
      const { token, orgId } = await signedInAccount(backend, "sandbox-body");
      const code = (await sandboxConnect(token)).code;
      for (const body of [
        { org_id: orgId, code },
        { org_id: orgId, installationId: "x".repeat(200), code },
        { org_id: orgId, installationId: "sandbox-1", code: "x".repeat(3000) },
        { org_id: orgId, installationId: "sandbox-1", code: " " },
        {},
      ]) {
        const response = await post(token, API_PATHS.githubSetup, body);
        expect(response.status).toBe(400);
        expect(response.body.code).toBe("INVALID_REQUEST");
      }
    });
  });

  describe("the Azure DevOps code host", () => {
    let azure: FakeAzureDevOps;
    beforeAll(async () => {
      azure = await startFakeAzureDevOps();
      // The fake is http on loopback.
      await start({ AZURE_DEVOPS_ALLOW_HTTP: "true", AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true" });
    });
    afterAll(async () => {
      await stop();
      await azure?.close();
    });

    const setup = (token: string, values: Partial<Record<string, string>> = {}) =>
      post(token, API_PATHS.integrationSetup("azure-devops"), {
        organization_url: azure.organizationUrl,
        project: azure.project,
        personal_access_token: azure.personalAccessToken,
        ...values,
      });
    const projectsOf = async (token: string) =>
      v.parse(projectsResponseSchema, (await get(token, API_PATHS.projects)).body).data.projects;

    it("imports the project's Git repositories for the caller's organisation only, and never answers the token", async () => {
      const mine = await signedInAccount(backend, "azure-mine");
      const theirs = await signedInAccount(backend, "azure-theirs");
      azure.calls.length = 0;
      const saved = await setup(mine.token);
      expect(saved.status).toBe(200);
      expect(v.parse(integrationSetupResponseSchema, saved.body)).toEqual({
        success: true,
        message: "Azure DevOps connected with 3 repositories",
        serviceHook: {
          url: expect.stringMatching(/\/webhooks\/azure-devops\/[0-9a-f-]{36}$/),
          secret: expect.any(String),
        },
      });
      expect(azure.calls).toEqual([
        `GET /fabrikam/_apis/projects/${azure.project}`,
        `GET /fabrikam/${azure.project}/_apis/git/repositories`,
      ]);

      const detail = await get(mine.token, API_PATHS.integration("azure-devops"));
      expect(v.parse(integrationResponseSchema, detail.body).data.activeIntegration).toEqual({
        integration_key: "azure-devops",
        is_active: true,
        properties: {
          organization_url: azure.organizationUrl,
          project: azure.project,
          personal_access_token: { set: true },
        },
        serviceHook: { url: saved.body.serviceHook.url },
      });
      const projects = await projectsOf(mine.token);
      for (const answer of [saved, detail, await get(mine.token, API_PATHS.integrations)]) {
        expect(answer.text).not.toContain(azure.personalAccessToken);
      }
      expect(JSON.stringify(projects)).not.toContain(azure.personalAccessToken);

      expect(projects.map((project) => project.name).sort()).toEqual([...azure.repositoryNames].sort());
      const web = `${azure.organizationUrl}/${encodeURIComponent(azure.project)}/_git/fabrikam-web`;
      expect(projects.find((project) => project.name === "fabrikam-web")).toEqual({
        id: expect.any(String),
        name: "fabrikam-web",
        integration_key: "azure-devops",
        integration_name: "azure-devops",
        integration_type: "git",
        external_link: web,
        active: true,
        webhook_active: false,
        properties: {
          full_name: `${azure.project}/fabrikam-web`,
          private: true,
          description: null,
          default_branch: "main",
          fork: false,
        },
      });
      // A repository with no commits has no default branch yet.
      expect(projects.find((project) => project.name === "empty-repo")?.properties).not.toHaveProperty(
        "default_branch",
      );

      expect(await projectNames(theirs.token)).toEqual([]);
      expect((await integration(theirs.token, "azure-devops")).isActive).toBe(false);
    });

    it("is idempotent: setting up again duplicates no repository", async () => {
      const own = await startFakeAzureDevOps();
      try {
        const { token } = await signedInAccount(backend, "azure-twice");
        const values = {
          organization_url: own.organizationUrl,
          personal_access_token: own.personalAccessToken,
        };
        expect((await setup(token, values)).status).toBe(200);
        const first = await projectsOf(token);
        expect((await setup(token, values)).status).toBe(200);
        const second = await projectsOf(token);
        expect(second).toHaveLength(own.repositoryNames.length);
        expect(second.map((project) => project.id).sort()).toEqual(first.map((project) => project.id).sort());
      } finally {
        await own.close();
      }
    });

    it("limits setups per organisation: the answers cannot map a network port by port", async () => {
      const { token } = await signedInAccount(backend, "azure-scanner");
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await setup(token, { personal_access_token: WRONG_PAT })).status).toBe(400);
      }
      azure.calls.length = 0;
      const limited = await setup(token);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe("Too many setup attempts. Please wait a few minutes and try again.");
      expect(azure.calls).toEqual([]);
      // Another organisation is not held back by it.
      const other = await signedInAccount(backend, "azure-neighbour");
      expect((await setup(other.token, { personal_access_token: WRONG_PAT })).status).toBe(400);
    });

    it("marks the repositories of a public project as not private", async () => {
      const open = await startFakeAzureDevOps({ visibility: "public", repositoryNames: ["oss"] });
      try {
        const { token } = await signedInAccount(backend, "azure-public");
        const saved = await setup(token, {
          organization_url: open.organizationUrl,
          personal_access_token: open.personalAccessToken,
        });
        expect(saved.status).toBe(200);
        expect((await projectsOf(token)).map((project) => project.properties.private)).toEqual([false]);
      } finally {
        await open.close();
      }
    });

    it("answers 400 with the refusal for a wrong token or an unknown project, storing nothing", async () => {
      const { token } = await signedInAccount(backend, "azure-refused");
      const wrong = await setup(token, { personal_access_token: WRONG_PAT });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ error: "The personal access token was refused" });
      expect(wrong.text).not.toContain(WRONG_PAT);

      const unknown = await setup(token, { project: "No Such Project" });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ error: "Project not found" });

      expect(await integration(token, "azure-devops")).toMatchObject({
        isActive: false,
        activeIntegration: null,
      });
      expect(await projectNames(token)).toEqual([]);
    });

    it("never follows a redirect: the organisation URL is the only address called", async () => {
      const redirecting = createServer((_req, res) => {
        res.writeHead(302, { location: `${azure.organizationUrl}/_apis/projects/${azure.project}` });
        res.end();
      });
      redirecting.listen(0, "127.0.0.1");
      await once(redirecting, "listening");
      try {
        const { token } = await signedInAccount(backend, "azure-redirect");
        azure.calls.length = 0;
        const { port } = redirecting.address() as AddressInfo;
        const response = await setup(token, { organization_url: `http://127.0.0.1:${port}/fabrikam` });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: "The personal access token was refused" });
        expect(azure.calls).toEqual([]);
      } finally {
        redirecting.close();
      }
    });

    it("answers 503 when Azure DevOps cannot be reached, storing nothing", async () => {
      const closed = createServer().listen(0, "127.0.0.1");
      await once(closed, "listening");
      const { port } = closed.address() as AddressInfo;
      closed.close();
      await once(closed, "close");
      const { token } = await signedInAccount(backend, "azure-down");
      const response = await setup(token, { organization_url: `http://127.0.0.1:${port}/fabrikam` });
      expect(response.status).toBe(503);
      expect(response.body.error).toBe("Azure DevOps could not be reached. Please try again.");
      expect((await integration(token, "azure-devops")).isActive).toBe(false);
    });
  });

  describe("an Azure DevOps organisation URL on a non-public address", () => {
    let azure: FakeAzureDevOps;
    beforeAll(async () => {
      azure = await startFakeAzureDevOps();
      // No AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: public addresses only.
      await start({ AZURE_DEVOPS_ALLOW_HTTP: "true" });
    });
    afterAll(async () => {
      await stop();
      await azure?.close();
    });

    it("is refused before anything is sent: loopback, private, link-local and the metadata service", async () => {
      const { token } = await signedInAccount(backend, "azure-private");
      for (const organizationUrl of [
        azure.organizationUrl,
        "http://localhost:8080/fabrikam",
        "http://10.1.2.3:8080/fabrikam",
        "http://192.168.0.10/fabrikam",
        "http://[fe80::1]/fabrikam",
        "http://169.254.169.254/latest",
        "http://[::ffff:127.0.0.1]:22/fabrikam",
      ]) {
        const response = await post(token, API_PATHS.integrationSetup("azure-devops"), {
          organization_url: organizationUrl,
          project: azure.project,
          personal_access_token: azure.personalAccessToken,
        });
        expect(response.status, organizationUrl).toBe(400);
        expect(response.body.error, organizationUrl).toBe(
          "The organization URL leads to a private or local network address, which this server does not call.",
        );
      }
      expect(azure.calls).toEqual([]);
      expect((await integration(token, "azure-devops")).isActive).toBe(false);
    });
  });

  describe("the GitHub App code host", () => {
    let github: FakeGitHub;
    beforeAll(async () => {
      github = await startFakeGitHub();
      await start({
        ...gitHubAppEnv(github),
      });
    });
    afterAll(async () => {
      await stop();
      await github?.close();
    });

    it("sends Connect to the app's installation page", async () => {
      const { token } = await signedInAccount(backend, "app-link");
      expect((await integration(token, "github")).links.oauth_url).toBe(
        `${github.appHtmlUrl}/installations/new`,
      );
    });

    it("imports every repository of a good installation, page by page, for the caller's organisation only", async () => {
      const mine = await signedInAccount(backend, "app-mine");
      const theirs = await signedInAccount(backend, "app-theirs");
      const repositories = Array.from({ length: 130 }, (_, i) =>
        fakeRepository("acme", `repo-${i}`, 5000 + i),
      );
      github.addInstallation({ id: 4242, account: "acme", repositories });

      const code = github.installerCode(4242);
      github.calls.length = 0;
      const response = await post(mine.token, API_PATHS.githubSetup, {
        org_id: mine.orgId,
        installationId: "4242",
        code,
      });
      expect(response.status).toBe(200);
      // The proof first (the code for a user token, the installations that user reaches), then the
      // installation.
      expect(github.calls.slice(0, 6)).toEqual([
        "POST /login/oauth/access_token",
        "GET /user/installations",
        "GET /app/installations/4242",
        "POST /app/installations/4242/access_tokens",
        "GET /installation/repositories",
        "GET /installation/repositories",
      ]);
      // Then the contributors import reads the latest commits of the first 30 repositories.
      expect(github.calls.slice(6, 8)).toEqual([
        "GET /app/installations/4242",
        "POST /app/installations/4242/access_tokens",
      ]);
      expect(github.calls.slice(8)).toEqual(
        repositories.slice(0, 30).map((repository) => `GET /repos/${repository.full_name}/commits`),
      );
      const listed = v.parse(
        projectsResponseSchema,
        (await get(mine.token, `${API_PATHS.projects}?pageSize=${PAGE_SIZE_MAX}`)).body,
      );
      expect(listed.page.total).toBe(130);
      const { projects } = listed.data;
      expect(projects.find((project) => project.name === "repo-2")).toMatchObject({
        integration_key: "4242",
        external_link: "https://github.com/acme/repo-2",
        properties: {
          full_name: "acme/repo-2",
          private: true,
          description: "The repo-2 repository",
          default_branch: "main",
          fork: false,
        },
      });
      expect(projects.some((project) => project.properties.sandbox)).toBe(false);
      expect(await projectNames(theirs.token)).toEqual([]);

      // Setting up again follows the installation: a repository no longer in it goes.
      github.addInstallation({ id: 4242, account: "acme", repositories: repositories.slice(0, 3) });
      expect(
        (
          await post(mine.token, API_PATHS.githubSetup, {
            org_id: mine.orgId,
            installationId: 4242,
            code: github.installerCode(4242),
          })
        ).status,
      ).toBe(200);
      expect(await projectNames(mine.token)).toEqual(["repo-0", "repo-1", "repo-2"]);
    });

    it("answers the same 403 for an unknown or revoked installation as for another's, and 400 for a suspended one of the user's", async () => {
      const { token, orgId } = await signedInAccount(backend, "app-unknown");
      github.addInstallation({ id: 77, account: "gone", repositories: [fakeRepository("gone", "r", 1)] });
      const revokedCode = github.installerCode(77);
      github.removeInstallation(77);
      github.addInstallation({ id: 78, account: "frozen", repositories: [], suspended: true });
      for (const installationId of ["999999", "77", "sandbox-abc"]) {
        const code = installationId === "77" ? revokedCode : github.installerCode(78);
        const response = await post(token, API_PATHS.githubSetup, { org_id: orgId, installationId, code });
        expect(response.status, installationId).toBe(403);
        expect(response.body).toEqual(NOT_PROVEN);
      }
      const suspended = await post(token, API_PATHS.githubSetup, {
        org_id: orgId,
        installationId: "78",
        code: github.installerCode(78),
      });
      expect(suspended.status).toBe(400);
      expect(suspended.body.error).toBe("This GitHub App installation is suspended.");
      expect((await integration(token, "github")).isActive).toBe(false);
      expect(await projectNames(token)).toEqual([]);
    });

    it("connects an installation only for a user GitHub shows it to, answering the same whatever else failed", async () => {
      const victim = await signedInAccount(backend, "app-victim");
      const attacker = await signedInAccount(backend, "app-attacker");
      github.addInstallation({
        id: 5151,
        account: "victim-co",
        repositories: [fakeRepository("victim-co", "secret", 51)],
      });
      github.addInstallation({
        id: 5252,
        account: "attacker-co",
        repositories: [fakeRepository("attacker-co", "x", 52)],
      });
      const victimCode = github.installerCode(5151);
      // GitHub's sign-in client issues codes too: not the App's, so not a proof.
      const signInCode = github.issueCode(
        github.addUser({ id: 5_353, login: "signer", name: null, emails: [] }),
      );
      github.calls.length = 0;

      // The attacker's own (good) code with the victim's id; codes that are not GitHub's, not the
      // App's, or already used; and ids GitHub does not know: one answer, before GitHub is asked
      // anything about the installation, so nothing can be learnt from it.
      const claims = [
        { installationId: 5151, code: github.installerCode(5252) },
        { installationId: 5151, code: "not-a-code" },
        { installationId: 5151, code: signInCode },
        { installationId: 999_999, code: "not-a-code" },
        { installationId: 999_999, code: github.installerCode(5252) },
      ];
      for (const claim of claims) {
        const response = await post(attacker.token, API_PATHS.githubSetup, {
          org_id: attacker.orgId,
          ...claim,
        });
        expect(response.status, JSON.stringify(claim)).toBe(403);
        expect(response.body).toEqual(NOT_PROVEN);
      }
      expect(github.calls.filter((call) => call.includes("/app/installations"))).toEqual([]);
      expect(await projectNames(attacker.token)).toEqual([]);
      expect((await integration(attacker.token, "github")).isActive).toBe(false);

      // The victim connects; the code then works no more, for anyone.
      const own = await post(victim.token, API_PATHS.githubSetup, {
        org_id: victim.orgId,
        installationId: 5151,
        code: victimCode,
      });
      expect(own.status).toBe(200);
      expect(await projectNames(victim.token)).toEqual(["secret"]);
      const replayed = await post(attacker.token, API_PATHS.githubSetup, {
        org_id: attacker.orgId,
        installationId: 5151,
        code: victimCode,
      });
      expect(replayed.status).toBe(403);
      expect(await projectNames(attacker.token)).toEqual([]);
    });

    it("answers 502 when GitHub fails", async () => {
      const { token, orgId } = await signedInAccount(backend, "app-down");
      github.addInstallation({ id: 90, account: "acme", repositories: [] });
      github.failWith = 500;
      try {
        const response = await post(token, API_PATHS.githubSetup, {
          org_id: orgId,
          installationId: "90",
          code: "a-code",
        });
        expect(response.status).toBe(502);
      } finally {
        github.failWith = undefined;
      }
    });
  });
});
