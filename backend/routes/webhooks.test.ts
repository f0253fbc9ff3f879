import { randomUUID } from "node:crypto";
import { Webhooks } from "@octokit/webhooks";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS, integrationResponseSchema, projectsResponseSchema } from "../../shared/contract.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type FakeGitHub, fakeRepository, startFakeGitHub } from "../../tests/support/fake-github.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";

/** Signs a payload the way GitHub does (X-Hub-Signature-256). */
const sign = (secret: string, payload: string) => new Webhooks({ secret }).sign(payload);

const SECRET = "webhook-secret-for-tests";

/** A repository as installation_repositories payloads describe it. */
const brief = (owner: string, name: string, id: number) => ({
  id,
  node_id: `R_${id}`,
  name,
  full_name: `${owner}/${name}`,
  private: false,
});

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  let database: FreshDatabase;
  let backend: Backend;
  let github: FakeGitHub;
  beforeAll(async () => {
    github = await startFakeGitHub();
    database = await freshDatabase(kind);
    backend = await createBackend(
      loadConfig({
        LOG_LEVEL: "silent",
        SESSION_SECRET: "s".repeat(32),
        GITHUB_API_URL: github.url,
        GITHUB_APP_ID: github.appId,
        GITHUB_APP_PRIVATE_KEY: github.appPrivateKey,
        GITHUB_WEBHOOK_SECRET: SECRET,
        ...database.env,
      }),
    );
  });
  afterAll(async () => {
    await backend?.close();
    await database?.drop();
    await github?.close();
  });

  async function deliver(
    event: string,
    payload: unknown,
    options: { delivery?: string; signature?: string | null } = {},
  ) {
    const body = JSON.stringify(payload);
    const signature = options.signature === undefined ? await sign(SECRET, body) : options.signature;
    let call = request(backend.app)
      .post(API_PATHS.githubWebhook)
      .set("Content-Type", "application/json")
      .set("X-GitHub-Event", event)
      .set("X-GitHub-Delivery", options.delivery ?? randomUUID());
    if (signature !== null) call = call.set("X-Hub-Signature-256", signature);
    return call.send(body);
  }

  async function connected(name: string, installationId: number) {
    const account = await signedInAccount(backend, name);
    github.addInstallation({
      id: installationId,
      account: name,
      repositories: [
        fakeRepository(name, "alpha", installationId * 10),
        fakeRepository(name, "beta", installationId * 10 + 1),
      ],
    });
    const setup = await request(backend.app)
      .post(API_PATHS.githubSetup)
      .set("Authorization", `Bearer ${account.token}`)
      .send({ org_id: account.orgId, installationId });
    expect(setup.status).toBe(200);
    return account;
  }
  async function projects(token: string) {
    const response = await request(backend.app)
      .get(API_PATHS.projects)
      .set("Authorization", `Bearer ${token}`);
    return projectsResponseSchema.parse(response.body).data.projects;
  }
  async function githubActive(token: string) {
    const response = await request(backend.app)
      .get(API_PATHS.integration("github"))
      .set("Authorization", `Bearer ${token}`);
    return integrationResponseSchema.parse(response.body).data.isActive;
  }

  it("refuses a delivery with a missing or wrong signature and changes nothing", async () => {
    const { token } = await connected("hook-signature", 11);
    const deleted = { action: "deleted", installation: { id: 11 } };
    for (const signature of [null, "", "sha256=00", await sign("another-secret", JSON.stringify(deleted))]) {
      const response = await deliver("installation", deleted, { signature });
      expect(response.status, String(signature)).toBe(401);
      expect(response.body).toEqual({ error: "Invalid webhook signature" });
    }
    expect(await githubActive(token)).toBe(true);
    expect((await projects(token)).every((project) => project.active)).toBe(true);
  });

  it("makes an uninstalled installation's integration and projects inactive", async () => {
    const { token } = await connected("hook-deleted", 12);
    const other = await connected("hook-bystander", 13);
    const response = await deliver("installation", { action: "deleted", installation: { id: 12 } });
    expect(response.status).toBe(200);
    expect(await githubActive(token)).toBe(false);
    expect((await projects(token)).map((project) => project.active)).toEqual([false, false]);
    expect(await githubActive(other.token)).toBe(true);
  });

  it("adds and removes projects as repositories join and leave the installation", async () => {
    const { token } = await connected("hook-repos", 14);
    const other = await connected("hook-repos-other", 15);
    const response = await deliver("installation_repositories", {
      action: "added",
      installation: { id: 14 },
      repository_selection: "selected",
      repositories_added: [brief("hook-repos", "gamma", 999)],
      repositories_removed: [],
    });
    expect(response.status).toBe(200);
    const afterAdd = await projects(token);
    expect(afterAdd.map((project) => project.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(afterAdd[2]).toMatchObject({
      integration_key: "14",
      external_link: "https://github.com/hook-repos/gamma",
      properties: { full_name: "hook-repos/gamma", private: false },
    });

    await deliver("installation_repositories", {
      action: "removed",
      installation: { id: 14 },
      repositories_added: [],
      repositories_removed: [brief("hook-repos", "alpha", 140)],
    });
    expect((await projects(token)).map((project) => project.name)).toEqual(["beta", "gamma"]);
    expect((await projects(other.token)).map((project) => project.name)).toEqual(["alpha", "beta"]);
  });

  it("applies a delivery once: a duplicate changes nothing", async () => {
    const { token } = await connected("hook-duplicate", 16);
    const delivery = randomUUID();
    const added = {
      action: "added",
      installation: { id: 16 },
      repositories_added: [brief("hook-duplicate", "delta", 1600)],
      repositories_removed: [],
    };
    expect((await deliver("installation_repositories", added, { delivery })).body).toEqual({
      received: true,
      duplicate: false,
    });
    await deliver("installation_repositories", {
      action: "removed",
      installation: { id: 16 },
      repositories_added: [],
      repositories_removed: [brief("hook-duplicate", "delta", 1600)],
    });
    const again = await deliver("installation_repositories", added, { delivery });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect((await projects(token)).map((project) => project.name)).toEqual(["alpha", "beta"]);
  });

  it("answers 503 without a webhook secret configured", async () => {
    const bare = await createBackend(
      loadConfig({ LOG_LEVEL: "silent", SESSION_SECRET: "s".repeat(32), DATA_DIR: "memory://" }),
    );
    try {
      const response = await request(bare.app)
        .post(API_PATHS.githubWebhook)
        .set("X-GitHub-Event", "ping")
        .set("X-GitHub-Delivery", randomUUID())
        .set("X-Hub-Signature-256", await sign(SECRET, "{}"))
        .send("{}");
      expect(response.status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});
