/**
 * Claiming another organisation's GitHub App installation, end to end: the gateway in front of a
 * real backend whose GitHub App is the fake GitHub (tests/support/fake-github.ts). Two organisations
 * on one deployment: the attacker's setup with the victim's installation id is refused and lists
 * nothing, and the victim's own setup, with the code GitHub's setup redirect gave its browser, works
 * (docs/decisions/027-installation-ownership.md).
 */

import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../backend/app.ts";
import {
  INSTALLATION,
  integrationResponseSchema,
  projectsResponseSchema,
} from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type RunningServer, startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { type FakeGitHub, fakeRepository, gitHubAppEnv, startFakeGitHub } from "../support/fake-github.ts";
import { cookieHeader, createTestGateway } from "../support/gateway.ts";
import { TEST_BACKEND_ENV, testBackends } from "../support/test-backend.ts";

const VICTIM_INSTALLATION = 7001;
const ATTACKER_INSTALLATION = 7002;

const backends = testBackends("pglite");
let github: FakeGitHub;
let backend: Backend;
let listening: RunningServer;
let gateway: ReturnType<typeof createTestGateway>["app"];

beforeAll(async () => {
  github = await startFakeGitHub();
  backend = await backends.start({ ...gitHubAppEnv(github), REVIEW_WORKERS: "0" });
  listening = await startServer(backend.app, {
    host: "127.0.0.1",
    port: 0,
    shutdownTimeoutMs: 1000,
    logger: createLogger({ name: "backend", level: "silent" }),
  });
  // The gateway verifies the backend's session tokens with the same secret.
  gateway = createTestGateway(listening.url, { SESSION_SECRET: TEST_BACKEND_ENV.SESSION_SECRET }).app;
  github.addInstallation({
    id: VICTIM_INSTALLATION,
    account: "victim-co",
    repositories: [fakeRepository("victim-co", "payroll", 71), fakeRepository("victim-co", "website", 72)],
  });
  github.addInstallation({
    id: ATTACKER_INSTALLATION,
    account: "attacker-co",
    repositories: [fakeRepository("attacker-co", "toy", 73)],
  });
});
afterAll(async () => {
  await listening?.shutdown();
  await backends.stop();
  await github?.close();
});

/** A signed-in browser: its session cookie, through the gateway. */
async function browserOf(name: string) {
  const account = await signedInAccount(backend, name);
  const cookie = cookieHeader(account.token);
  return {
    orgId: account.orgId,
    setup: (body: object) => request(gateway).post(API_PATHS.githubSetup).set("Cookie", cookie).send(body),
    projects: async () =>
      v
        .parse(
          projectsResponseSchema,
          (await request(gateway).get(API_PATHS.projects).set("Cookie", cookie)).body,
        )
        .data.projects.map((project) => project.name)
        .sort(),
    githubActive: async () =>
      v.parse(
        integrationResponseSchema,
        (await request(gateway).get(API_PATHS.integration("github")).set("Cookie", cookie)).body,
      ).data.isActive,
  };
}

describe("an organisation that posts another's GitHub App installation id", () => {
  it("is refused and lists nothing; the owner's own setup then works", async () => {
    const victim = await browserOf("victim");
    const attacker = await browserOf("attacker");
    // Each came back from GitHub's setup redirect with a code of its own installer.
    const victimCode = github.installerCode(VICTIM_INSTALLATION);
    const attackerCode = github.installerCode(ATTACKER_INSTALLATION);

    const claim = await attacker.setup({
      org_id: attacker.orgId,
      installationId: String(VICTIM_INSTALLATION),
      code: attackerCode,
    });
    expect(claim.status).toBe(403);
    expect(claim.body).toEqual({ error: INSTALLATION.notProven });
    // An id GitHub does not know answers the same: ids cannot be probed.
    const probe = await attacker.setup({ org_id: attacker.orgId, installationId: "987654", code: "guess" });
    expect([probe.status, probe.body]).toEqual([claim.status, claim.body]);
    expect(await attacker.projects()).toEqual([]);
    expect(await attacker.githubActive()).toBe(false);

    // Nothing was taken: the victim's own setup is not blocked by a 409.
    const own = await victim.setup({
      org_id: victim.orgId,
      installationId: String(VICTIM_INSTALLATION),
      code: victimCode,
    });
    expect(own.status).toBe(200);
    expect(await victim.projects()).toEqual(["payroll", "website"]);
    expect(await attacker.projects()).toEqual([]);

    // The attacker's own installation, with its own code, is still its to connect.
    const theirs = await attacker.setup({
      org_id: attacker.orgId,
      installationId: String(ATTACKER_INSTALLATION),
      code: github.installerCode(ATTACKER_INSTALLATION),
    });
    expect(theirs.status).toBe(200);
    expect(await attacker.projects()).toEqual(["toy"]);
  });
});
