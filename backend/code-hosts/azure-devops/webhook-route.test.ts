/**
 * Azure DevOps service hooks with two organisations on one deployment (docs/decisions/028): each
 * integration has its own hook URL and secret, an event counts only for its hook's organisation,
 * project and repositories, one repository serves one organisation, and a bot command is obeyed
 * only from someone Azure DevOps lets contribute to the repository.
 */

import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  integrationResponseSchema,
  integrationSetupResponseSchema,
} from "../../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import {
  type PullRequestOptions,
  pullRequestCommented,
  pullRequestCreated,
  pullRequestUpdated,
} from "../../../tests/support/azure-devops-service-hooks.ts";
import { signedInAccount } from "../../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import {
  type FakeAzureDevOps,
  integrationRowBeforeHooks,
  startFakeAzureDevOps,
} from "../../../tests/support/fake-azure-devops.ts";
import { reviewRuns } from "../../../tests/support/github-review-flow.ts";
import { testBackends } from "../../../tests/support/test-backend.ts";
import type { Backend } from "../../app.ts";

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
/** The hook id of a hook URL. */
const hookIdOf = (url: string) => new URL(url).pathname.split("/").at(-1) ?? "";

interface Tenant {
  token: string;
  azure: FakeAzureDevOps;
  hook: { url: string; secret: string };
  /** Where an event of this tenant's fabrikam-web comes from. */
  at: (pullRequestId: number) => PullRequestOptions;
}

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let victim: Tenant;
  let attacker: Tenant;

  const setUp = (token: string, azure: FakeAzureDevOps) =>
    request(backend.app)
      .post(API_PATHS.integrationSetup("azure-devops"))
      .set("Authorization", `Bearer ${token}`)
      .send({
        organization_url: azure.organizationUrl,
        project: azure.project,
        personal_access_token: azure.personalAccessToken,
      });

  async function tenant(name: string, azure: FakeAzureDevOps): Promise<Tenant> {
    const { token } = await signedInAccount(backend, name);
    const setup = await setUp(token, azure);
    expect(setup.status).toBe(200);
    const hook = v.parse(integrationSetupResponseSchema, setup.body).serviceHook;
    if (!hook) throw new Error("the first setup answers the hook's secret");
    return {
      token,
      azure,
      hook,
      at: (pullRequestId) => ({
        organizationUrl: azure.organizationUrl,
        projectId: azure.projectId,
        repositoryId: azure.repositoryId("fabrikam-web"),
        pullRequestId,
      }),
    };
  }

  beforeAll(async () => {
    backend = await backends.start({
      AZURE_DEVOPS_ALLOW_HTTP: "true",
      // The fakes listen on loopback.
      AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true",
      // No workers: what ingest queued stays queued for the tests to see.
      REVIEW_WORKERS: "0",
    });
    victim = await tenant("victim", await startFakeAzureDevOps());
    attacker = await tenant("attacker", await startFakeAzureDevOps({ project: "Contoso" }));
  });
  afterAll(async () => {
    await backends.stop();
    await victim?.azure.close();
    await attacker?.azure.close();
  });

  const deliver = (hookUrl: string, event: unknown, authorization: string | null) => {
    let call = request(backend.app)
      .post(new URL(hookUrl).pathname)
      .set("Content-Type", "application/json; charset=utf-8");
    if (authorization !== null) call = call.set("Authorization", authorization);
    return call.send(JSON.stringify(event));
  };
  const asVictim = (event: unknown) => deliver(victim.hook.url, event, basic("argus", victim.hook.secret));
  const runsOf = (pullRequest: number) =>
    backend.db
      .selectFrom("review_runs")
      .select(["status", "trigger", "command", "head_sha", "base_sha"])
      .where("pull_request", "=", pullRequest)
      .orderBy("queued_at")
      .execute();
  const outcomeOf = async (hookUrl: string, eventId: string) =>
    (
      await backend.db
        .selectFrom("webhook_deliveries")
        .select("outcome")
        .where("id", "=", `ado:${hookIdOf(hookUrl)}:${eventId}`)
        .executeTakeFirst()
    )?.outcome;

  it("gives each integration its own hook URL and secret, stores only the secret's digest, and shows the URL, never the secret", async () => {
    expect(victim.hook.url).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/webhooks\/azure-devops\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(attacker.hook.url).not.toBe(victim.hook.url);
    expect(victim.hook.secret).not.toBe(attacker.hook.secret);
    expect(victim.hook.secret.length).toBeGreaterThanOrEqual(43);
    const stored = await backend.db
      .selectFrom("integrations")
      .select(["hook_secret_digest", "secrets", "properties"])
      .where("hook_id", "=", hookIdOf(victim.hook.url))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(victim.hook.secret);
    expect(stored.properties.project_id).toBe(victim.azure.projectId);

    const page = await request(backend.app)
      .get(API_PATHS.integration("azure-devops"))
      .set("Authorization", `Bearer ${victim.token}`);
    const integration = v.parse(integrationResponseSchema, page.body).data;
    expect(integration.activeIntegration?.serviceHook).toEqual({ url: victim.hook.url });
    expect(JSON.stringify(page.body)).not.toContain(victim.hook.secret);

    // Setting up again (a new token, say) keeps the hook working: no new secret.
    const again = await setUp(victim.token, victim.azure);
    expect(again.status).toBe(200);
    expect(again.body.serviceHook).toBeUndefined();
  });

  it("refuses a hook without its own integration's secret and queues nothing", async () => {
    const event = pullRequestCreated(victim.at(1));
    for (const authorization of [
      null,
      "",
      basic("argus", attacker.hook.secret),
      basic("argus", `${victim.hook.secret}x`),
      `Bearer ${victim.hook.secret}`,
      `Basic ${Buffer.from(victim.hook.secret).toString("base64")}`,
    ]) {
      const response = await deliver(victim.hook.url, event, authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.body).toEqual({ error: "Invalid webhook credentials" });
    }
    // A hook id nobody has, and the one deployment-wide path of before, take nothing either.
    const unknownHook = "http://127.0.0.1:3000/webhooks/azure-devops/00000000-0000-4000-8000-000000000000";
    expect((await deliver(unknownHook, event, basic("argus", victim.hook.secret))).status).toBe(401);
    const oldPath = await request(backend.app)
      .post("/webhooks/azure-devops")
      .set("Authorization", basic("argus", victim.hook.secret))
      .send(JSON.stringify(event));
    expect(oldPath.status).toBe(404);
    expect(await runsOf(1)).toEqual([]);
  });

  it("starts nothing for an event forged for the victim's repository through the attacker's own hook", async () => {
    const withAttackersSecret = (event: unknown) =>
      deliver(attacker.hook.url, event, basic("argus", attacker.hook.secret));
    // The victim's repository as it really is: of another organisation than the attacker's hook.
    const asIs = pullRequestCreated(victim.at(2));
    expect((await withAttackersSecret(asIs)).status).toBe(202);
    expect(await outcomeOf(attacker.hook.url, asIs.id)).toBe(
      "ignored: event is not from the integration's organization",
    );
    // Dressed up as the attacker's organisation and project: still not a repository of theirs.
    const dressed = pullRequestCreated({
      ...attacker.at(2),
      repositoryId: victim.azure.repositoryId("fabrikam-web"),
    });
    expect((await withAttackersSecret(dressed)).status).toBe(202);
    expect(await outcomeOf(attacker.hook.url, dressed.id)).toBe("ignored: unknown repository");
    // `@argus pause` on the victim's pull request, likewise.
    const pause = pullRequestCommented({ ...victim.at(2), content: "@argus pause" });
    await withAttackersSecret(pause);
    expect(await outcomeOf(attacker.hook.url, pause.id)).toBe(
      "ignored: event is not from the integration's organization",
    );
    expect(await runsOf(2)).toEqual([]);
  });

  it("refuses an event of the organisation's other projects", async () => {
    const event = pullRequestCreated({ ...victim.at(3), projectId: "9d6b1d2c-0000-4000-8000-000000000000" });
    expect((await asVictim(event)).status).toBe(202);
    expect(await outcomeOf(victim.hook.url, event.id)).toBe(
      "ignored: event is not from the integration's project",
    );
    expect(await runsOf(3)).toEqual([]);
  });

  it("refuses to connect a repository another organisation has, and stores nothing", async () => {
    const { token } = await signedInAccount(backend, "latecomer");
    const response = await setUp(token, victim.azure);
    expect(response.status).toBe(409);
    expect(response.body.error).toBe(
      "A repository of this project is already connected to another organization. A repository can be reviewed for one organization only.",
    );
    const page = await request(backend.app)
      .get(API_PATHS.integration("azure-devops"))
      .set("Authorization", `Bearer ${token}`);
    expect(page.body.data.activeIntegration).toBeNull();
    const projects = await backend.db
      .selectFrom("projects")
      .select("org_id")
      .where("external_id", "=", victim.azure.repositoryId("fabrikam-web"))
      .execute();
    expect(projects).toHaveLength(1);
  });

  it("queues a review of a created pull request at its source commit, once per event id", async () => {
    const event = pullRequestCreated({ ...victim.at(4), sourceCommit: "1".repeat(40) });
    const first = await deliver(victim.hook.url, event, basic("any-user-name", victim.hook.secret));
    const retried = await asVictim(event);

    expect(first.status).toBe(202);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: "queued" });
    expect(retried.body).toEqual({ received: true, duplicate: true, outcome: "duplicate" });
    expect(await runsOf(4)).toEqual([
      {
        status: "queued",
        trigger: "opened",
        command: null,
        head_sha: "1".repeat(40),
        base_sha: "a511f535b1ea495ee0c903badb68fbc83772c882",
      },
    ]);
    // Listed by the event's title before any worker has read the pull request; its link comes then.
    const [listed] = (await reviewRuns(backend, victim.token)).filter((run) => run.pullRequest === 4);
    expect(listed).toMatchObject({ pullRequestTitle: "Add the settings page", pullRequestUrl: null });
  });

  it("folds updates into the queued review, and ignores a pull request that is no longer active", async () => {
    await asVictim(pullRequestCreated(victim.at(5)));
    const updated = await asVictim(pullRequestUpdated({ ...victim.at(5), sourceCommit: "2".repeat(40) }));
    expect(updated.body.outcome).toBe("coalesced");
    const abandoned = pullRequestUpdated({ ...victim.at(5), status: "abandoned" });
    expect((await asVictim(abandoned)).body.outcome).toBe("ignored");
    expect(await outcomeOf(victim.hook.url, abandoned.id)).toBe("ignored: pull request is abandoned");
    expect(await runsOf(5)).toEqual([
      expect.objectContaining({ trigger: "synchronize", head_sha: "2".repeat(40) }),
    ]);
  });

  it("obeys a bot command from a contributor only; others' are recorded with the reason and not run", async () => {
    const chat = pullRequestCommented({ ...victim.at(6), content: "Nice work" });
    expect((await asVictim(chat)).status).toBe(202);
    expect(await outcomeOf(victim.hook.url, chat.id)).toBe("ignored: no command");

    const reader = victim.azure.addPerson("reader@fabrikam.example", "read");
    for (const content of ["@argus pause", "@argus full review", "@argus review", "@argus help"]) {
      const refused = pullRequestCommented({ ...victim.at(6), content, author: reader });
      expect((await asVictim(refused)).body.outcome, content).toBe("ignored");
      expect(await outcomeOf(victim.hook.url, refused.id)).toBe(
        "ignored: command refused: the commenter may not contribute to the repository",
      );
    }
    const stranger = pullRequestCommented({ ...victim.at(6), content: "@argus pause" });
    await asVictim(stranger);
    expect(await outcomeOf(victim.hook.url, stranger.id)).toBe(
      "ignored: command refused: the commenter may not contribute to the repository",
    );
    expect(await runsOf(6)).toEqual([]);

    const writer = victim.azure.addPerson("writer@fabrikam.example", "contribute");
    const command = pullRequestCommented({ ...victim.at(6), content: "@argus review", author: writer });
    expect((await asVictim(command)).body.outcome).toBe("queued");
    expect(await runsOf(6)).toEqual([expect.objectContaining({ trigger: "command", command: "review" })]);
    expect(victim.azure.calls).toContain("GET /fabrikam/_apis/identities");
    expect(victim.azure.calls).toContain(
      "GET /fabrikam/_apis/accesscontrollists/2e9eb7ed-3c0a-47d4-87c1-0ffdd275fd87",
    );
  });

  it("acknowledges and records events it does not review", async () => {
    const unknown = pullRequestCreated({
      ...victim.at(7),
      repositoryId: "00000000-0000-4000-8000-000000000000",
    });
    expect((await asVictim(unknown)).status).toBe(202);
    expect(await outcomeOf(victim.hook.url, unknown.id)).toBe("ignored: unknown repository");
    const other = { ...pullRequestCreated(victim.at(7)), eventType: "git.push" };
    expect((await asVictim(other)).status).toBe(202);
    expect(await outcomeOf(victim.hook.url, other.id)).toBe("ignored: event git.push is not reviewed");
    expect(await runsOf(7)).toEqual([]);
  });

  it("refuses a body that is not a service-hook event", async () => {
    expect((await asVictim({ hello: "world" })).status).toBe(400);
    const broken = await request(backend.app)
      .post(new URL(victim.hook.url).pathname)
      .set("Authorization", basic("argus", victim.hook.secret))
      .set("Content-Type", "application/json")
      .send("{not json");
    expect(broken.status).toBe(400);
  });

  it("makes a new secret on request, after which the old one is refused", async () => {
    const old = attacker.hook.secret;
    const answer = await request(backend.app)
      .post(API_PATHS.azureDevOpsHookSecret)
      .set("Authorization", `Bearer ${attacker.token}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.url).toBe(attacker.hook.url);
    expect(answer.body.data.secret).not.toBe(old);
    const event = pullRequestCreated(attacker.at(8));
    expect((await deliver(attacker.hook.url, event, basic("argus", old))).status).toBe(401);
    expect((await deliver(attacker.hook.url, event, basic("argus", answer.body.data.secret))).status).toBe(
      202,
    );
    attacker.hook = answer.body.data;
  });

  it("refuses events for an integration set up before hooks had secrets until the team generates one", async () => {
    const azure = await startFakeAzureDevOps({ project: "Legacy" });
    try {
      const { token, orgId } = await signedInAccount(backend, "legacy");
      // As 0015 leaves such a row: no hook, no project id, the token as it was stored then.
      await backend.db.insertInto("integrations").values(integrationRowBeforeHooks(azure, orgId)).execute();
      await backend.db
        .insertInto("projects")
        .values({
          org_id: orgId,
          name: "fabrikam-web",
          integration_key: "azure-devops",
          integration_name: "azure-devops",
          integration_type: "git",
          external_link: `${azure.organizationUrl}/Legacy/_git/fabrikam-web`,
          external_id: azure.repositoryId("fabrikam-web"),
        })
        .execute();
      const page = await request(backend.app)
        .get(API_PATHS.integration("azure-devops"))
        .set("Authorization", `Bearer ${token}`);
      expect(page.body.data.activeIntegration.serviceHook).toBeNull();

      const answer = await request(backend.app)
        .post(API_PATHS.azureDevOpsHookSecret)
        .set("Authorization", `Bearer ${token}`);
      expect(answer.status).toBe(200);
      const event = pullRequestCreated({
        organizationUrl: azure.organizationUrl,
        projectId: azure.projectId,
        repositoryId: azure.repositoryId("fabrikam-web"),
        pullRequestId: 9,
      });
      const delivered = await deliver(answer.body.data.url, event, basic("argus", answer.body.data.secret));
      expect(delivered.body.outcome).toBe("queued");
    } finally {
      await azure.close();
    }
  });
});
