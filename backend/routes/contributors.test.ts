import { randomBytes } from "node:crypto";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integrationResponseSchema } from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import {
  addContributorResponseSchema,
  CONTRIBUTOR_MESSAGES,
  type Contributor,
  contributorSuggestionsResponseSchema,
  contributorsResponseSchema,
} from "../../shared/contract/contributors.ts";
import { sandboxConnectOf } from "../../shared/contract/sandbox.ts";
import { SANDBOX_ACTIVE_PEOPLE, SANDBOX_PEOPLE, SANDBOX_REPOSITORIES } from "../../shared/sandbox-samples.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import {
  type FakeGitHub,
  fakeRepository,
  gitHubAppEnv,
  startFakeGitHub,
} from "../../tests/support/fake-github.ts";
import { bearerCalls, TEST_BACKEND_ENV, testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";
import { createGitHubApp } from "../code-hosts/github/connect.ts";
import { createSandboxInstallations } from "../code-hosts/sandbox/connect.ts";
import { CONTRIBUTOR_IMPORT_TTL_MS, createContributorImport } from "../contributors/import.ts";

const DAY_MS = 86_400_000;

describe.each(TEST_DATABASE_KINDS)("contributors on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  async function start(env: Record<string, string>) {
    backend = await backends.start(env);
  }
  const stop = backends.stop;
  const { get, post } = bearerCalls(() => backend.app);

  async function contributors(token: string): Promise<Contributor[]> {
    const response = await get(token, API_PATHS.contributors);
    expect(response.status).toBe(200);
    return v.parse(contributorsResponseSchema, response.body).data;
  }
  const add = (token: string, username: string) =>
    post(token, API_PATHS.addContributor, { platform_id: username, platform_type: "github" });

  describe("with the sandbox code host", () => {
    beforeAll(() => start({}));
    afterAll(stop);

    async function connectSandbox(account: { token: string; orgId: string }) {
      const github = v.parse(
        integrationResponseSchema,
        (await get(account.token, API_PATHS.integration("github"))).body,
      ).data;
      const response = await post(account.token, API_PATHS.githubSetup, {
        org_id: account.orgId,
        ...sandboxConnectOf(github.links.oauth_url),
      });
      expect(response.status).toBe(200);
    }

    it("imports the people active on the sample repositories on connecting, for that organisation only", async () => {
      const mine = await signedInAccount(backend, "sandbox-import");
      const theirs = await signedInAccount(backend, "sandbox-other");
      expect(await contributors(mine.token)).toEqual([]);
      await connectSandbox(mine);

      const list = await contributors(mine.token);
      const active = SANDBOX_PEOPLE.slice(0, SANDBOX_ACTIVE_PEOPLE);
      expect(list.map((entry) => entry.platform_id).sort()).toEqual(
        active.map((person) => person.login).sort(),
      );
      // By name, as the table first shows them.
      expect(list.map((entry) => entry.name)).toEqual(list.map((entry) => entry.name).sort());
      const ada = list.find((entry) => entry.platform_id === "ada-rivera");
      expect(ada).toEqual({
        id: expect.any(String),
        name: "Ada Rivera",
        platform_id: "ada-rivera",
        platform_type: "github",
        email: "ada-rivera@sandbox.example",
        avatar_url: null,
        last_git_activity: expect.any(String),
        role: null,
        seat_id: null,
      });
      // Recently active: within the last day for the first person of the sandbox.
      expect(Date.now() - Date.parse(ada?.last_git_activity ?? "")).toBeLessThan(DAY_MS);
      expect(await contributors(theirs.token)).toEqual([]);
    });

    it("adds a person by username, updates one already there, and answers 404 for an unknown name", async () => {
      const account = await signedInAccount(backend, "sandbox-add");
      await connectSandbox(account);
      const newcomer = SANDBOX_PEOPLE[SANDBOX_ACTIVE_PEOPLE] ?? SANDBOX_PEOPLE[0];

      const created = await add(account.token, `  ${newcomer?.login.toUpperCase()} `);
      expect(created.status).toBe(200);
      const first = v.parse(addContributorResponseSchema, created.body);
      expect(first).toMatchObject({
        success: true,
        created: true,
        message: CONTRIBUTOR_MESSAGES.added,
        data: { platform_id: newcomer?.login, name: newcomer?.name, last_git_activity: null, seat_id: null },
      });

      const again = v.parse(
        addContributorResponseSchema,
        (await add(account.token, newcomer?.login ?? "")).body,
      );
      expect(again).toMatchObject({ created: false, message: CONTRIBUTOR_MESSAGES.updated });
      expect(again.data.id).toBe(first.data.id);

      // Someone the import brought in keeps the activity it recorded.
      const imported = v.parse(addContributorResponseSchema, (await add(account.token, "ada-rivera")).body);
      expect(imported.created).toBe(false);
      expect(imported.data.last_git_activity).not.toBeNull();

      const unknown = await add(account.token, "no-such-person");
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe(
        'The sandbox code host has no user named "no-such-person". Pick one of its people from the list.',
      );
      expect((await contributors(account.token)).length).toBe(SANDBOX_ACTIVE_PEOPLE + 1);
    });

    it("imports again when the list is asked for after CONTRIBUTOR_IMPORT_TTL_MS, and only with GitHub connected", async () => {
      const connected = await signedInAccount(backend, "sandbox-stale");
      const unconnected = await signedInAccount(backend, "sandbox-stale-none");
      await connectSandbox(connected);
      const sandbox = createSandboxInstallations({
        publicOrigin: TEST_BACKEND_ENV.PUBLIC_ORIGIN,
        codeKey: randomBytes(32),
      });
      const asked: string[][] = [];
      const codeHost = {
        ...sandbox,
        contributors: (installationId: string, repositories: readonly { full_name: string }[]) => {
          asked.push(repositories.map((repository) => repository.full_name).sort());
          return sandbox.contributors(installationId, repositories);
        },
      };
      let clock = 0;
      const imports = createContributorImport(backend.db, codeHost, () => clock);
      await imports.refreshIfStale(connected.orgId);
      await imports.refreshIfStale(unconnected.orgId);
      clock += CONTRIBUTOR_IMPORT_TTL_MS - 1;
      await imports.refreshIfStale(connected.orgId);
      expect(asked).toHaveLength(1);
      // From the repositories the setup stored, without listing them again.
      expect(asked[0]).toEqual(SANDBOX_REPOSITORIES.map((repository) => repository.full_name).sort());
      clock += 1;
      await imports.refreshIfStale(connected.orgId);
      expect(asked).toHaveLength(2);
    });

    it("suggests everyone the sandbox knows, by name, once GitHub is connected", async () => {
      const account = await signedInAccount(backend, "sandbox-suggest");
      const suggestions = async () => {
        const response = await get(account.token, API_PATHS.contributorSuggestions);
        expect(response.status).toBe(200);
        return v.parse(contributorSuggestionsResponseSchema, response.body).data;
      };
      expect(await suggestions()).toEqual([]);
      await connectSandbox(account);
      const offered = await suggestions();
      expect(offered).toEqual(
        SANDBOX_PEOPLE.map((person) => ({ platform_id: person.login, name: person.name })).sort((a, b) =>
          a.name.localeCompare(b.name),
        ),
      );
      // Each of them can be added.
      const last = offered.at(-1);
      expect((await add(account.token, last?.platform_id ?? "")).status).toBe(200);
    });

    it("refuses to add before GitHub is connected, and a malformed body", async () => {
      const account = await signedInAccount(backend, "sandbox-unconnected");
      const response = await add(account.token, "ada-rivera");
      expect(response.status).toBe(409);
      expect(response.body.error).toBe("Connect GitHub before adding contributors.");
      for (const body of [
        { platform_id: "  ", platform_type: "github" },
        { platform_id: "ada", platform_type: "gitlab" },
      ]) {
        const bad = await post(account.token, API_PATHS.addContributor, body);
        expect(bad.status).toBe(400);
        expect(bad.body.code).toBe("INVALID_REQUEST");
      }
      expect(await contributors(account.token)).toEqual([]);
    });
  });

  describe("with the GitHub App code host", () => {
    let github: FakeGitHub;
    const recent = (days: number) =>
      new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d+Z$/, "Z");

    beforeAll(async () => {
      github = await startFakeGitHub();
      github.addUser({
        id: 501,
        login: "Octo-Cat",
        name: "Octo Cat",
        emails: [{ email: "octo@example.com", primary: true, verified: true, visibility: "public" }],
      });
      github.addUser({ id: 502, login: "quiet-one", name: null, emails: [] });
      await start({
        ...gitHubAppEnv(github),
      });
    });
    afterAll(async () => {
      await stop();
      await github?.close();
    });

    let nextInstallation = 8080;
    /** A new installation of the same repositories and commits, connected to the account's organisation. */
    async function connect(account: { token: string; orgId: string }) {
      const id = nextInstallation++;
      github.addInstallation({
        id,
        account: "acme",
        repositories: [
          fakeRepository("acme", "api", 1),
          fakeRepository("acme", "web", 2),
          fakeRepository("acme", "empty", 3),
        ],
        commits: [
          {
            repository: "acme/api",
            login: "Octo-Cat",
            name: "Octo",
            email: "octo@example.com",
            date: recent(5),
          },
          {
            repository: "acme/web",
            login: "Octo-Cat",
            name: "Octo",
            email: "octo@example.com",
            date: recent(1),
          },
          {
            repository: "acme/web",
            login: "dev-two",
            name: "Dev Two",
            email: "2+dev-two@users.noreply.github.com",
            date: recent(3),
          },
          {
            repository: "acme/web",
            login: "renovate",
            name: "Renovate",
            email: "bot@example.com",
            date: recent(2),
            bot: true,
          },
          {
            repository: "acme/api",
            login: null,
            name: "Unlinked",
            email: "who@example.com",
            date: recent(1),
          },
        ],
      });
      const setup = await post(account.token, API_PATHS.githubSetup, {
        org_id: account.orgId,
        installationId: String(id),
        code: github.installerCode(id),
      });
      expect(setup.status).toBe(200);
    }

    it("imports the committers of the installation's repositories, each once with their latest commit", async () => {
      const account = await signedInAccount(backend, "app-import");
      await connect(account);
      expect(github.calls).toContain("GET /repos/acme/web/commits");

      const list = await contributors(account.token);
      // No bot, no commit without an account; a private noreply address is not shown.
      expect(list.map((entry) => [entry.platform_id, entry.name, entry.email])).toEqual([
        ["dev-two", "Dev Two", null],
        ["Octo-Cat", "Octo", "octo@example.com"],
      ]);
      const octo = list.find((entry) => entry.platform_id === "Octo-Cat");
      expect(Date.now() - Date.parse(octo?.last_git_activity ?? "")).toBeLessThan(1.1 * DAY_MS);
      expect(octo?.avatar_url).toBe("https://avatars.githubusercontent.com/u/501?v=4");
    });

    it("skips a repository that is empty or no longer in the installation", async () => {
      const account = await signedInAccount(backend, "app-gone");
      await connect(account);
      const app = createGitHubApp({
        id: github.appId,
        privateKey: github.appPrivateKey,
        apiUrl: github.url,
        clientId: github.appClientId,
        clientSecret: github.appClientSecret,
        oauthUrl: github.url,
      });
      const people = await app.contributors(String(nextInstallation - 1), [
        { full_name: "acme/gone" },
        { full_name: "acme/empty" },
        { full_name: "acme/api" },
      ]);
      expect(people.map((person) => person.login)).toEqual(["Octo-Cat"]);
    });

    it("looks a username up with GitHub: adds, updates, and 404 for an unknown or invalid name", async () => {
      const account = await signedInAccount(backend, "app-add");
      await connect(account);
      const quiet = v.parse(addContributorResponseSchema, (await add(account.token, "quiet-one")).body);
      expect(quiet).toMatchObject({ created: true, data: { platform_id: "quiet-one", name: "quiet-one" } });
      expect(github.calls).toContain("GET /users/quiet-one");

      // GitHub's canonical spelling is kept: the imported row is updated, not duplicated.
      const octo = v.parse(addContributorResponseSchema, (await add(account.token, "octo-cat")).body);
      expect(octo).toMatchObject({ created: false, data: { platform_id: "Octo-Cat", name: "Octo Cat" } });
      expect(octo.data.last_git_activity).not.toBeNull();

      expect((await add(account.token, "nobody-at-all")).status).toBe(404);
      const calls = github.calls.length;
      expect((await add(account.token, "-bad-name")).status).toBe(404);
      expect(github.calls.length).toBe(calls);
      expect((await contributors(account.token)).length).toBe(3);
    });

    it("suggests nobody: GitHub cannot list its accounts, and is not asked", async () => {
      const account = await signedInAccount(backend, "app-suggest");
      await connect(account);
      const calls = github.calls.length;
      const response = await get(account.token, API_PATHS.contributorSuggestions);
      expect(response.status).toBe(200);
      expect(v.parse(contributorSuggestionsResponseSchema, response.body).data).toEqual([]);
      expect(github.calls.length).toBe(calls);
    });

    it("answers 502 when GitHub fails to look a name up, adding nobody", async () => {
      const account = await signedInAccount(backend, "app-down");
      await connect(account);
      github.failWith = 500;
      try {
        expect((await add(account.token, "quiet-one")).status).toBe(502);
        expect((await contributors(account.token)).length).toBe(2);
      } finally {
        github.failWith = undefined;
      }
    });
  });
});
