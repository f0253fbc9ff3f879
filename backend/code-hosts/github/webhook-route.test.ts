import { randomUUID } from "node:crypto";
import { Webhooks } from "@octokit/webhooks";
import { sql } from "kysely";
import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integrationResponseSchema, projectsResponseSchema } from "../../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { signedInAccount } from "../../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import {
  type FakeGitHub,
  fakeRepository,
  gitHubAppEnv,
  startFakeGitHub,
} from "../../../tests/support/fake-github.ts";
import { reviewRuns as listedRuns } from "../../../tests/support/github-review-flow.ts";
import { type WebhookExample, webhookExample } from "../../../tests/support/github-webhook-examples.ts";
import { testBackends } from "../../../tests/support/test-backend.ts";
import { type Backend, createBackend } from "../../app.ts";
import { loadConfig } from "../../config.ts";

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
  const backends = testBackends(kind);
  let backend: Backend;
  let github: FakeGitHub;
  beforeAll(async () => {
    github = await startFakeGitHub();
    backend = await backends.start({
      ...gitHubAppEnv(github),
      GITHUB_WEBHOOK_SECRET: SECRET,
      // No workers: what ingest queued stays queued for the tests to see (backend/review/queue/queue.test.ts runs jobs).
      REVIEW_WORKERS: "0",
    });
  });
  afterAll(async () => {
    await backends.stop();
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
      .send({ org_id: account.orgId, installationId, code: github.installerCode(installationId) });
    expect(setup.status).toBe(200);
    return account;
  }
  async function projects(token: string) {
    const response = await request(backend.app)
      .get(API_PATHS.projects)
      .set("Authorization", `Bearer ${token}`);
    return v.parse(projectsResponseSchema, response.body).data.projects;
  }
  async function githubActive(token: string) {
    const response = await request(backend.app)
      .get(API_PATHS.integration("github"))
      .set("Authorization", `Bearer ${token}`);
    return v.parse(integrationResponseSchema, response.body).data.isActive;
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
      // Linked on GitHub's web host (GITHUB_OAUTH_URL), here the fake.
      external_link: `${github.url}/hook-repos/gamma`,
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

  it("applies a signed body once, even when it comes again under a new delivery id", async () => {
    const { token } = await connected("hook-replay", 17);
    const removed = {
      action: "removed",
      installation: { id: 17 },
      repositories_added: [],
      repositories_removed: [brief("hook-replay", "alpha", 170)],
    };
    const added = { ...removed, action: "added", repositories_added: removed.repositories_removed };
    added.repositories_removed = [];
    expect((await deliver("installation_repositories", removed)).body).toEqual({
      received: true,
      duplicate: false,
    });
    expect((await deliver("installation_repositories", added)).body.duplicate).toBe(false);
    // Someone who saw the first delivery sends its exact bytes and signature again, under a new id.
    const replay = await deliver("installation_repositories", removed, { delivery: randomUUID() });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect((await projects(token)).map((project) => project.name)).toEqual(["alpha", "beta"]);
  });

  /** GitHub's example of the event, pointed at a connected repository (installation `id`, repository `id * 10`). */
  function example<E extends "pull_request" | "issue_comment" | "check_run">(
    event: E,
    action: string,
    installationId: number,
    changes: (payload: WebhookExample<E>) => void = () => {},
  ): WebhookExample<E> {
    const payload = webhookExample(event, action);
    payload.installation = { id: installationId, node_id: `I_${installationId}` };
    payload.repository = { ...payload.repository, id: installationId * 10 };
    changes(payload);
    return payload;
  }
  async function reviewRuns(installationId: number) {
    return backend.db
      .selectFrom("review_runs")
      .innerJoin("projects", "projects.id", "review_runs.project_id")
      .select(["review_runs.id", "status", "trigger", "command", "head_sha", "base_sha", "pull_request"])
      .where("projects.integration_key", "=", String(installationId))
      .orderBy("queued_at")
      .execute();
  }
  /** The title and link of each run the organisation's Reviews list shows. */
  async function listedPullRequests(token: string) {
    return (await listedRuns(backend, token)).map((run) => ({
      title: run.pullRequestTitle,
      url: run.pullRequestUrl,
    }));
  }
  async function queuedJobs(runIds: string[]) {
    const { rows } = await sql<{ state: string; data: { runId: string } }>`
      select state, data from pgboss.job where name = 'review'`.execute(backend.db);
    return rows.filter((row) => runIds.includes(row.data.runId));
  }
  async function deliveryOutcome(id: string) {
    const row = await backend.db
      .selectFrom("webhook_deliveries")
      .select(["event", "outcome"])
      .where("id", "=", id)
      .executeTakeFirst();
    return row;
  }

  it("queues a review of an opened pull request at its head, once per delivery", async () => {
    const account = await connected("hook-review", 21);
    const delivery = randomUUID();
    const payload = example("pull_request", "opened", 21);
    const first = await deliver("pull_request", payload, { delivery });
    const again = await deliver("pull_request", payload, { delivery });

    expect(first.status).toBe(202);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: "queued" });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ received: true, duplicate: true, outcome: "duplicate" });
    // The same signed body under another delivery id is the same event: not applied again.
    const replay = await deliver("pull_request", payload, { delivery: randomUUID() });
    expect(replay.body).toEqual({ received: true, duplicate: true, outcome: "duplicate" });
    const runs = await reviewRuns(21);
    expect(runs).toEqual([
      expect.objectContaining({
        status: "queued",
        trigger: "opened",
        command: null,
        pull_request: payload.pull_request.number,
        head_sha: payload.pull_request.head.sha,
        base_sha: payload.pull_request.base.sha,
      }),
    ]);
    expect(await queuedJobs(runs.map((run) => run.id))).toHaveLength(1);
    expect(await deliveryOutcome(delivery)).toEqual({ event: "pull_request.opened", outcome: "queued" });
    // Listed by the title and link the event gave, before any worker has read the pull request.
    expect(await listedPullRequests(account.token)).toEqual([
      { title: payload.pull_request.title, url: payload.pull_request.html_url },
    ]);
  });

  it("records a pull request's new title for its runs, and reviews nothing for the edit", async () => {
    const account = await connected("hook-review-renamed", 29);
    const opened = example("pull_request", "opened", 29);
    await deliver("pull_request", opened);
    // GitHub's `edited` payload: the pull request as it is now, and what changed (the old values).
    const edited = (changes: object, title: string) => ({
      ...example("pull_request", "opened", 29, (payload) => {
        payload.pull_request.title = title;
      }),
      action: "edited",
      changes,
    });
    const renamed = await deliver(
      "pull_request",
      edited({ title: { from: opened.pull_request.title } }, "New"),
    );
    expect(renamed.body).toEqual({ received: true, duplicate: false, outcome: "labelled" });
    const bodyOnly = randomUUID();
    await deliver("pull_request", edited({ body: { from: "" } }, "Not a rename"), { delivery: bodyOnly });
    expect((await deliveryOutcome(bodyOnly))?.outcome).toBe("ignored: action edited is not reviewed");

    expect(await listedPullRequests(account.token)).toEqual([
      { title: "New", url: opened.pull_request.html_url },
    ]);
    expect(await reviewRuns(29)).toHaveLength(1);
  });

  it("refuses a pull-request delivery with a missing or wrong signature and queues nothing", async () => {
    await connected("hook-review-signature", 22);
    const payload = example("pull_request", "opened", 22);
    for (const signature of [null, "sha256=00", await sign("another-secret", JSON.stringify(payload))]) {
      expect((await deliver("pull_request", payload, { signature })).status).toBe(401);
    }
    expect(await reviewRuns(22)).toEqual([]);
  });

  it("coalesces ten rapid pushes into one queued review of the latest head", async () => {
    await connected("hook-review-pushes", 23);
    const heads = Array.from({ length: 10 }, (_, n) => `${String(n).padStart(2, "0")}${"f".repeat(38)}`);
    const responses = await Promise.all(
      heads.map((sha) =>
        deliver(
          "pull_request",
          example("pull_request", "synchronize", 23, (payload) => {
            payload.pull_request.head.sha = sha;
          }),
        ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
    expect(responses.filter((response) => response.body.outcome === "queued")).toHaveLength(1);
    expect(responses.filter((response) => response.body.outcome === "coalesced")).toHaveLength(9);
    const runs = await reviewRuns(23);
    expect(runs).toHaveLength(1);
    expect(await queuedJobs(runs.map((run) => run.id))).toHaveLength(1);
    // Deliveries that arrive together may commit in any order: the run carries one of their heads,
    // and after the last one committed, a further push decides it.
    expect(heads).toContain(runs[0]?.head_sha);
    await deliver(
      "pull_request",
      example("pull_request", "synchronize", 23, (payload) => {
        payload.pull_request.head.sha = "latest";
      }),
    );
    expect((await reviewRuns(23)).map((run) => run.head_sha)).toEqual(["latest"]);
  });

  /** A comment on pull request 1 of the installation's repository `${owner}/alpha`. */
  const commentOn =
    (owner: string, installationId: number) =>
    (body: string, changes: (payload: WebhookExample<"issue_comment">) => void = () => {}) =>
      example("issue_comment", "created", installationId, (payload) => {
        payload.repository.full_name = `${owner}/alpha`;
        const pull = "https://github.com/o/r/pull/1";
        payload.issue.pull_request = {
          url: "https://api.github.com/repos/o/r/pulls/1",
          html_url: pull,
          diff_url: `${pull}.diff`,
          patch_url: `${pull}.patch`,
        };
        payload.comment.body = body;
        changes(payload);
      });

  it("queues a bot command from a pull-request comment, and ignores other comments and actions", async () => {
    const account = await connected("hook-review-comments", 24);
    const comment = commentOn("hook-review-comments", 24);
    const ignored: Array<[string, unknown, string]> = [
      ["issue_comment", comment("Looks good to me"), "ignored: no command"],
      [
        "issue_comment",
        comment("@argus review", (payload) => delete payload.issue.pull_request),
        "ignored: comment on an issue",
      ],
      [
        "issue_comment",
        comment("@argus review", (payload) => (payload.comment.user.type = "Bot")),
        "ignored: comment by a bot",
      ],
      ["pull_request", example("pull_request", "closed", 24), "ignored: action closed is not reviewed"],
    ];
    for (const [event, payload, outcome] of ignored) {
      const delivery = randomUUID();
      const response = await deliver(event, payload, { delivery });
      expect(response.status).toBe(202);
      expect((await deliveryOutcome(delivery))?.outcome).toBe(outcome);
    }
    expect(await reviewRuns(24)).toEqual([]);

    const payload = comment("Please have a look\n@argus full review");
    github.addUser({
      id: payload.comment.user.id,
      login: payload.comment.user.login,
      name: null,
      emails: [],
    });
    github.setRole("hook-review-comments/alpha", payload.comment.user.login, "write");
    expect((await deliver("issue_comment", payload)).body.outcome).toBe("queued");
    expect(await reviewRuns(24)).toEqual([
      expect.objectContaining({
        trigger: "command",
        command: "full review",
        pull_request: payload.issue.number,
        head_sha: null,
      }),
    ]);
    expect(await listedPullRequests(account.token)).toEqual([
      { title: payload.issue.title, url: "https://github.com/o/r/pull/1" },
    ]);
  });

  it("obeys a bot command only from someone with write access to the repository, recording the refusals", async () => {
    await connected("hook-commanders", 25);
    const comment = commentOn("hook-commanders", 25);
    const by = (login: string, body: string) =>
      comment(body, (payload) => {
        payload.comment.user.login = login;
      });
    const people: Array<[string, "read" | "triage" | "write" | "maintain" | "admin" | undefined]> = [
      ["outsider", undefined],
      ["reader", "read"],
      ["triager", "triage"],
      ["writer", "write"],
      ["maintainer", "maintain"],
      ["owner", "admin"],
    ];
    for (const [index, [login, role]] of people.entries()) {
      github.addUser({ id: 2_500 + index, login, name: null, emails: [] });
      if (role) github.setRole("hook-commanders/alpha", login, role);
    }
    // Every command, pause and help too: any of them would be a stranger steering the organisation's bot.
    for (const [login, body] of [
      ["outsider", "@argus full review"],
      ["outsider", "@argus pause"],
      ["reader", "@argus review"],
      ["triager", "@argus help"],
      ["not-on-github", "@argus resume"],
    ] as const) {
      const delivery = randomUUID();
      const response = await deliver("issue_comment", by(login, body), { delivery });
      expect(response.status).toBe(202);
      expect(response.body.outcome, login).toBe("ignored");
      expect((await deliveryOutcome(delivery))?.outcome).toBe(
        `ignored: ${login} may not command reviews (no write access to hook-commanders/alpha)`,
      );
    }
    expect(await reviewRuns(25)).toEqual([]);

    for (const login of ["writer", "maintainer", "owner"]) {
      const response = await deliver("issue_comment", by(login, "@argus full review"));
      expect(["queued", "coalesced"], login).toContain(response.body.outcome);
    }
    expect(await reviewRuns(25)).toEqual([
      expect.objectContaining({ trigger: "command", command: "full review" }),
    ]);

    // GitHub cannot say: the delivery fails unrecorded, so its redelivery is taken in.
    const delivery = randomUUID();
    const pause = by("writer", "@argus pause");
    github.failWith = 500;
    try {
      expect((await deliver("issue_comment", pause, { delivery })).status).toBe(502);
    } finally {
      github.failWith = undefined;
    }
    expect(await deliveryOutcome(delivery)).toBeUndefined();
    expect((await deliver("issue_comment", pause, { delivery })).body.outcome).toBe("coalesced");
  });

  it("queues a review when someone with write access re-runs the review's check, and only then", async () => {
    await connected("hook-rerun", 26);
    const rerun = (login: string) =>
      example("check_run", "rerequested", 26, (payload) => {
        payload.repository.full_name = "hook-rerun/alpha";
        payload.check_run.name = "Argus review";
        const side = {
          ref: "feature",
          sha: payload.check_run.head_sha,
          repo: { id: 260, url: "u", name: "alpha" },
        };
        payload.check_run.pull_requests = [{ id: 1, number: 9, url: "u", head: side, base: side }];
        payload.sender = { ...payload.sender, login };
      });
    github.addUser({ id: 2_601, login: "rerun-reader", name: null, emails: [] });
    github.addUser({ id: 2_602, login: "rerun-writer", name: null, emails: [] });
    github.setRole("hook-rerun/alpha", "rerun-reader", "read");
    github.setRole("hook-rerun/alpha", "rerun-writer", "write");

    const refused = randomUUID();
    expect((await deliver("check_run", rerun("rerun-reader"), { delivery: refused })).status).toBe(202);
    expect((await deliveryOutcome(refused))?.outcome).toBe(
      "ignored: rerun-reader may not command reviews (no write access to hook-rerun/alpha)",
    );
    expect(await reviewRuns(26)).toEqual([]);

    expect((await deliver("check_run", rerun("rerun-writer"))).body.outcome).toBe("queued");
    expect(await reviewRuns(26)).toEqual([
      expect.objectContaining({ trigger: "command", command: "review", pull_request: 9 }),
    ]);
  });

  it("acknowledges and records an event of a repository it does not know", async () => {
    const delivery = randomUUID();
    const response = await deliver("pull_request", example("pull_request", "opened", 9_999), { delivery });
    expect(response.status).toBe(202);
    expect(response.body.outcome).toBe("ignored");
    expect(await deliveryOutcome(delivery)).toEqual({
      event: "pull_request.opened",
      outcome: "ignored: unknown repository",
    });
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
