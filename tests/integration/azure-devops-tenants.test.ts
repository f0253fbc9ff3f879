/**
 * Two organisations on one deployment, each with its own Azure DevOps (the fake), end to end
 * through the gateway as browsers and service hooks reach it (docs/decisions/028): each setup
 * answers its own hook URL and secret once; an event forged for the victim's repository and signed
 * with the attacker's own secret starts nothing, whichever hook it is sent to; the victim's real
 * event through the victim's hook starts a review with the victim's token; and the victim's
 * repository cannot be connected a second time.
 */

import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { integrationSetupResponseSchema, type ServiceHookSecret } from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { pullRequestCommented, pullRequestCreated } from "../support/azure-devops-service-hooks.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../support/databases.ts";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../support/fake-azure-devops.ts";
import { cookieHeader, createTestGateway } from "../support/gateway.ts";
import { TEST_BACKEND_ENV, testBackends } from "../support/test-backend.ts";

const basic = (password: string) => `Basic ${Buffer.from(`azure-devops:${password}`).toString("base64")}`;

describe.each(TEST_DATABASE_KINDS)("Azure DevOps tenants through the gateway on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let server: Awaited<ReturnType<typeof startServer>>;
  let gateway: ReturnType<typeof createTestGateway>["app"];
  let victimAzure: FakeAzureDevOps;
  let attackerAzure: FakeAzureDevOps;
  const tokens: Record<"victim" | "attacker" | "latecomer", string> = {
    victim: "",
    attacker: "",
    latecomer: "",
  };
  const hooks: Partial<Record<"victim" | "attacker", ServiceHookSecret>> = {};

  beforeAll(async () => {
    victimAzure = await startFakeAzureDevOps();
    attackerAzure = await startFakeAzureDevOps({ project: "Contoso" });
    backend = await backends.start({
      AZURE_DEVOPS_ALLOW_HTTP: "true",
      AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true",
      // Runs stay queued: what an event started is read from the database.
      REVIEW_WORKERS: "0",
    });
    server = await startServer(backend.app, {
      host: "127.0.0.1",
      port: 0,
      shutdownTimeoutMs: 1000,
      logger: createLogger({ name: "backend", level: "silent" }),
    });
    const backendUrl = server.url;
    // The backend signs sessions with the shared secret; the gateway verifies them with it.
    gateway = createTestGateway(backendUrl, { SESSION_SECRET: TEST_BACKEND_ENV.SESSION_SECRET }).app;
    for (const name of ["victim", "attacker", "latecomer"] as const) {
      tokens[name] = (await signedInAccount(backend, `tenant-${name}`)).token;
    }
  });
  afterAll(async () => {
    await server?.shutdown();
    await backends.stop();
    await victimAzure?.close();
    await attackerAzure?.close();
  });

  const setUp = (who: keyof typeof tokens, azure: FakeAzureDevOps) =>
    request(gateway)
      .post(API_PATHS.integrationSetup("azure-devops"))
      .set("Cookie", cookieHeader(tokens[who]))
      .set("Content-Type", "application/json")
      .send({
        organization_url: azure.organizationUrl,
        project: azure.project,
        personal_access_token: azure.personalAccessToken,
      });
  const hookCall = (hook: ServiceHookSecret, password: string, event: unknown) =>
    request(gateway)
      .post(new URL(hook.url).pathname)
      .set("Authorization", basic(password))
      .set("Content-Type", "application/json")
      .send(JSON.stringify(event));
  const runsOf = (pullRequest: number) =>
    backend.db
      .selectFrom("review_runs")
      .innerJoin("projects", "projects.id", "review_runs.project_id")
      .select(["review_runs.org_id", "projects.external_id", "review_runs.trigger", "review_runs.command"])
      .where("review_runs.pull_request", "=", pullRequest)
      .execute();
  const victimsRepository = () => ({
    organizationUrl: victimAzure.organizationUrl,
    projectId: victimAzure.projectId,
    repositoryId: victimAzure.repositoryId("fabrikam-web"),
  });

  it("answers each organisation's own hook URL and secret once, at setup", async () => {
    for (const [who, azure] of [
      ["victim", victimAzure],
      ["attacker", attackerAzure],
    ] as const) {
      const answer = await setUp(who, azure);
      expect(answer.status, `${who}: ${answer.text}`).toBe(200);
      hooks[who] = v.parse(integrationSetupResponseSchema, answer.body).serviceHook;
    }
    expect(hooks.victim?.url).not.toBe(hooks.attacker?.url);
    expect(hooks.victim?.secret).not.toBe(hooks.attacker?.secret);
  });

  it("starts nothing for an event forged for the victim's repository with the attacker's secret", async () => {
    const victim = hooks.victim as ServiceHookSecret;
    const attacker = hooks.attacker as ServiceHookSecret;
    const forged = pullRequestCreated({ ...victimsRepository(), pullRequestId: 41 });
    // To the victim's hook: the attacker's secret is not its secret.
    expect((await hookCall(victim, attacker.secret, forged)).status).toBe(401);
    // To the attacker's own hook: the repository is neither of its organisation nor of its projects.
    const own = await hookCall(attacker, attacker.secret, forged);
    expect(own.status).toBe(202);
    expect(own.body.outcome).toBe("ignored");
    const dressed = pullRequestCreated({
      ...victimsRepository(),
      organizationUrl: attackerAzure.organizationUrl,
      projectId: attackerAzure.projectId,
      pullRequestId: 41,
    });
    expect((await hookCall(attacker, attacker.secret, dressed)).body.outcome).toBe("ignored");
    const pause = pullRequestCommented({
      ...victimsRepository(),
      pullRequestId: 41,
      content: "@argus pause",
    });
    expect((await hookCall(attacker, attacker.secret, pause)).body.outcome).toBe("ignored");
    expect(await runsOf(41)).toEqual([]);
  });

  it("starts the victim's review from the victim's own hook", async () => {
    const victim = hooks.victim as ServiceHookSecret;
    const event = pullRequestCreated({ ...victimsRepository(), pullRequestId: 42 });
    const answer = await hookCall(victim, victim.secret, event);
    expect(answer.status).toBe(202);
    expect(answer.body.outcome).toBe("queued");
    expect(await runsOf(42)).toEqual([
      expect.objectContaining({ external_id: victimAzure.repositoryId("fabrikam-web"), trigger: "opened" }),
    ]);
  });

  it("refuses to connect the victim's repository to a second organisation", async () => {
    const answer = await setUp("latecomer", victimAzure);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/already connected to another organization/);
    const page = await request(gateway)
      .get(API_PATHS.integration("azure-devops"))
      .set("Cookie", cookieHeader(tokens.latecomer));
    expect(page.body.data.activeIntegration).toBeNull();
  });
});
