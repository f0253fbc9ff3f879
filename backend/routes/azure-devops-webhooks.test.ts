import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../shared/contract.ts";
import {
  pullRequestCommented,
  pullRequestCreated,
  pullRequestUpdated,
} from "../../tests/support/azure-devops-service-hooks.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../../tests/support/fake-azure-devops.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";

const SECRET = "azure-devops-hook-secret-for-tests";
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  let database: FreshDatabase;
  let backend: Backend;
  let azure: FakeAzureDevOps;
  /** The id of an imported Azure DevOps repository. */
  let repositoryId: string;
  beforeAll(async () => {
    azure = await startFakeAzureDevOps();
    database = await freshDatabase(kind);
    backend = await createBackend(
      loadConfig({
        LOG_LEVEL: "silent",
        SESSION_SECRET: "s".repeat(32),
        AZURE_DEVOPS_ALLOW_HTTP: "true",
        AZURE_DEVOPS_WEBHOOK_SECRET: SECRET,
        // No workers: what ingest queued stays queued for the tests to see.
        REVIEW_WORKERS: "0",
        ...database.env,
      }),
    );
    const { token } = await signedInAccount(backend, "azure-hooks");
    const setup = await request(backend.app)
      .post(API_PATHS.integrationSetup("azure-devops"))
      .set("Authorization", `Bearer ${token}`)
      .send({
        organization_url: azure.organizationUrl,
        project: azure.project,
        personal_access_token: azure.personalAccessToken,
      });
    expect(setup.status).toBe(200);
    const project = await backend.db
      .selectFrom("projects")
      .select("external_id")
      .where("integration_name", "=", "azure-devops")
      .where("name", "=", "fabrikam-web")
      .executeTakeFirstOrThrow();
    repositoryId = project.external_id ?? "";
  });
  afterAll(async () => {
    await backend?.close();
    await database?.drop();
    await azure?.close();
  });

  const deliver = (event: unknown, authorization: string | null = basic("argus", SECRET)) => {
    let call = request(backend.app)
      .post(API_PATHS.azureDevOpsWebhook)
      .set("Content-Type", "application/json; charset=utf-8");
    if (authorization !== null) call = call.set("Authorization", authorization);
    return call.send(JSON.stringify(event));
  };
  const runsOf = (pullRequest: number) =>
    backend.db
      .selectFrom("review_runs")
      .select(["status", "trigger", "command", "head_sha", "base_sha"])
      .where("pull_request", "=", pullRequest)
      .orderBy("queued_at")
      .execute();
  const outcomeOf = async (eventId: string) =>
    (
      await backend.db
        .selectFrom("webhook_deliveries")
        .select("outcome")
        .where("id", "=", `ado:${eventId}`)
        .executeTakeFirst()
    )?.outcome;

  it("refuses a hook without the secret as its Basic-auth password and queues nothing", async () => {
    const event = pullRequestCreated({ repositoryId, pullRequestId: 1 });
    for (const authorization of [
      null,
      "",
      basic("argus", "wrong-secret-of-the-same-kind!!"),
      basic("argus", `${SECRET}x`),
      `Bearer ${SECRET}`,
      `Basic ${Buffer.from(SECRET).toString("base64")}`,
    ]) {
      const response = await deliver(event, authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.body).toEqual({ error: "Invalid webhook credentials" });
    }
    expect(await runsOf(1)).toEqual([]);
  });

  it("queues a review of a created pull request at its source commit, once per event id", async () => {
    const event = pullRequestCreated({ repositoryId, pullRequestId: 2, sourceCommit: "1".repeat(40) });
    const first = await deliver(event, basic("any-user-name", SECRET));
    const retried = await deliver(event);

    expect(first.status).toBe(202);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: "queued" });
    expect(retried.body).toEqual({ received: true, duplicate: true, outcome: "duplicate" });
    expect(await runsOf(2)).toEqual([
      {
        status: "queued",
        trigger: "opened",
        command: null,
        head_sha: "1".repeat(40),
        base_sha: "a511f535b1ea495ee0c903badb68fbc83772c882",
      },
    ]);
    expect(await outcomeOf(event.id)).toBe("queued");
  });

  it("folds updates into the queued review, and ignores a pull request that is no longer active", async () => {
    await deliver(pullRequestCreated({ repositoryId, pullRequestId: 3 }));
    const updated = await deliver(
      pullRequestUpdated({ repositoryId, pullRequestId: 3, sourceCommit: "2".repeat(40) }),
    );
    expect(updated.body.outcome).toBe("coalesced");
    const abandoned = pullRequestUpdated({ repositoryId, pullRequestId: 3, status: "abandoned" });
    expect((await deliver(abandoned)).body.outcome).toBe("ignored");
    expect(await outcomeOf(abandoned.id)).toBe("ignored: pull request is abandoned");
    expect(await runsOf(3)).toEqual([
      expect.objectContaining({ trigger: "synchronize", head_sha: "2".repeat(40) }),
    ]);
  });

  it("queues a bot command from a comment and ignores other comments", async () => {
    const chat = pullRequestCommented({ repositoryId, pullRequestId: 4, content: "Nice work" });
    expect((await deliver(chat)).status).toBe(202);
    expect(await outcomeOf(chat.id)).toBe("ignored: no command");
    const command = pullRequestCommented({ repositoryId, pullRequestId: 4, content: "@argus review" });
    expect((await deliver(command)).body.outcome).toBe("queued");
    expect(await runsOf(4)).toEqual([expect.objectContaining({ trigger: "command", command: "review" })]);
  });

  it("acknowledges and records events it does not review", async () => {
    const unknown = pullRequestCreated({
      repositoryId: "00000000-0000-4000-8000-000000000000",
      pullRequestId: 5,
    });
    expect((await deliver(unknown)).status).toBe(202);
    expect(await outcomeOf(unknown.id)).toBe("ignored: unknown repository");
    const other = { ...pullRequestCreated({ repositoryId, pullRequestId: 5 }), eventType: "git.push" };
    expect((await deliver(other)).status).toBe(202);
    expect(await outcomeOf(other.id)).toBe("ignored: event git.push is not reviewed");
    expect(await runsOf(5)).toEqual([]);
  });

  it("refuses a body that is not a service-hook event", async () => {
    expect((await deliver({ hello: "world" })).status).toBe(400);
    const broken = await request(backend.app)
      .post(API_PATHS.azureDevOpsWebhook)
      .set("Authorization", basic("argus", SECRET))
      .set("Content-Type", "application/json")
      .send("{not json");
    expect(broken.status).toBe(400);
  });

  it("answers 503 without a hook secret configured", async () => {
    const bare = await createBackend(
      loadConfig({
        LOG_LEVEL: "silent",
        SESSION_SECRET: "s".repeat(32),
        DATA_DIR: "memory://",
        REVIEW_WORKERS: "0",
      }),
    );
    try {
      const response = await request(bare.app)
        .post(API_PATHS.azureDevOpsWebhook)
        .set("Authorization", basic("argus", SECRET))
        .send(JSON.stringify(pullRequestCreated({ repositoryId, pullRequestId: 6 })));
      expect(response.status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});
