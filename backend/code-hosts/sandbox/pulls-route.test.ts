import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRODUCT_NAME } from "../../../shared/constants.ts";
import { integrationResponseSchema, projectsResponseSchema } from "../../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { botCommandText, reviewRunsResponseSchema } from "../../../shared/contract/reviews.ts";
import {
  SANDBOX_PULL_PATHS,
  sandboxCommentPostedSchema,
  sandboxConnectOf,
  sandboxPullCreatedSchema,
  sandboxPullHref,
  sandboxPullResponseSchema,
  sandboxPullsResponseSchema,
} from "../../../shared/contract/sandbox.ts";
import { signedInAccount } from "../../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import { testMarkersOf } from "../../../tests/support/review-markers.ts";
import { sandboxConnectedAccount } from "../../../tests/support/sandbox-accounts.ts";
import { bearerCalls, testBackends } from "../../../tests/support/test-backend.ts";
import type { Backend } from "../../app.ts";
import { NO_FEEDBACK } from "../../review/pipeline/feedback.ts";
import { createSandboxReviewHost } from "./review-adapter.ts";
import { baseTree, templateOf } from "./samples.ts";
import { sandboxProject } from "./store.ts";

const BASE_TREE = baseTree(DEFAULT_PRODUCT_NAME);

const FINGERPRINT = (digit: string) => digit.repeat(64);

describe.each(TEST_DATABASE_KINDS)("sandbox pull requests on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  beforeAll(async () => {
    // No workers: the runs stay queued, so the test sees what ingest queued.
    backend = await backends.start({ REVIEW_WORKERS: "0" });
  });
  afterAll(() => backends.stop());
  const { get, post } = bearerCalls(() => backend.app);

  const connected = (name: string) => sandboxConnectedAccount(backend, name);

  async function open(token: string, projectId: string, body: object) {
    const response = await post(token, SANDBOX_PULL_PATHS.pulls(projectId), body);
    expect(response.status).toBe(201);
    return v.parse(sandboxPullCreatedSchema, response.body).data;
  }
  const runsOf = (projectId: string) =>
    backend.db
      .selectFrom("review_runs")
      .select(["pull_request", "trigger", "head_sha", "base_sha", "status"])
      .where("project_id", "=", projectId)
      .orderBy("queued_at")
      .execute();

  it("lists templates and the base files, opens a pull request from a template and queues its review", async () => {
    const { token, project } = await connected("sandbox-pulls");
    const listed = v.parse(
      sandboxPullsResponseSchema,
      (await get(token, SANDBOX_PULL_PATHS.pulls(project.id))).body,
    ).data;
    expect(listed.repository).toEqual({
      id: project.id,
      fullName: project.properties.full_name,
      defaultBranch: project.properties.default_branch,
    });
    expect(listed.templates.map((template) => template.id)).toContain("leaked-key");
    expect(listed.files.map((file) => file.path)).toEqual(Object.keys(BASE_TREE));
    expect(listed.pulls).toEqual([]);

    const first = await open(token, project.id, { template: "leaked-key" });
    const second = await open(token, project.id, {
      title: "Say hello",
      path: "README.md",
      content: "# Hello\n",
    });
    expect([first.number, second.number]).toEqual([1, 2]);

    const runs = await runsOf(project.id);
    expect(runs).toEqual([
      expect.objectContaining({
        pull_request: 1,
        trigger: "opened",
        head_sha: first.headSha,
        status: "queued",
      }),
      expect.objectContaining({
        pull_request: 2,
        trigger: "opened",
        head_sha: second.headSha,
        status: "queued",
      }),
    ]);
    // The Reviews list names each queued run's pull request before a worker has read it.
    const listedRuns = v.parse(reviewRunsResponseSchema, (await get(token, API_PATHS.reviews)).body).data;
    expect(listedRuns.map((run) => [run.pullRequestTitle, run.pullRequestUrl])).toEqual([
      ["Say hello", sandboxPullHref(second.id)],
      [templateOf("leaked-key").title, sandboxPullHref(first.id)],
    ]);
    const detail = v.parse(
      sandboxPullResponseSchema,
      (await get(token, SANDBOX_PULL_PATHS.pull(first.id))).body,
    ).data;
    expect(detail).toMatchObject({
      number: 1,
      title: templateOf("leaked-key").title,
      author: "sandbox-pulls",
      headSha: first.headSha,
      baseSha: runs[0]?.base_sha,
      latestRun: { status: "queued" },
    });
    expect(detail.files.map((file) => [file.path, file.status, file.additions, file.deletions])).toEqual([
      ["src/config.ts", "modified", 2, 0],
    ]);
    expect(detail.files[0]?.headContent).toBe(templateOf("leaked-key").content);
    const tokenLine = detail.files[0]?.hunks
      .flatMap((hunk) => hunk.lines)
      .find((line) => line.text.includes("githubToken: env"));
    const headLines = templateOf("leaked-key").content.split("\n");
    expect(tokenLine).toMatchObject({ kind: "add", oldLine: null });
    expect(headLines[(tokenLine?.newLine ?? 0) - 1]).toBe(tokenLine?.text);
  });

  it("a pushed commit moves the head and queues a synchronize review, folded into the queued run", async () => {
    const { token, project } = await connected("sandbox-push");
    const pull = await open(token, project.id, { template: "focused-test" });
    const push = await post(token, SANDBOX_PULL_PATHS.pullCommits(pull.id), {
      path: "src/cart.test.ts",
      content: BASE_TREE["src/cart.test.ts"],
    });
    expect(push.status).toBe(201);
    const { headSha } = v.parse(sandboxPullCreatedSchema, push.body).data;
    expect(headSha).not.toBe(pull.headSha);
    // The first run had not started, so the push joined it (coalescing), at the new head.
    expect(await runsOf(project.id)).toEqual([
      expect.objectContaining({ pull_request: 1, trigger: "synchronize", head_sha: headSha }),
    ]);
    const detail = v.parse(
      sandboxPullResponseSchema,
      (await get(token, SANDBOX_PULL_PATHS.pull(pull.id))).body,
    ).data;
    expect(detail.headSha).toBe(headSha);
    expect(detail.files).toEqual([]);
  });

  it("takes a person's comment; a bot command in it queues a command run as GitHub's issue_comment would", async () => {
    const { token, project } = await connected("sandbox-comment");
    const pull = await open(token, project.id, { template: "clean-change" });

    const plain = await post(token, SANDBOX_PULL_PATHS.pullComments(pull.id), {
      body: "Looks **fine** to me.",
    });
    expect(plain.status).toBe(201);
    expect(v.parse(sandboxCommentPostedSchema, plain.body).data).toMatchObject({
      command: null,
      runId: null,
    });
    expect(await runsOf(project.id)).toHaveLength(1);

    const command = await post(token, SANDBOX_PULL_PATHS.pullComments(pull.id), {
      body: `Please have a look.\n${botCommandText(DEFAULT_PRODUCT_NAME, "full review")}`,
    });
    expect(command.status).toBe(201);
    const posted = v.parse(sandboxCommentPostedSchema, command.body).data;
    expect(posted.command).toBe("full review");
    const runs = await backend.db
      .selectFrom("review_runs")
      .select(["id", "trigger", "command", "status"])
      .where("project_id", "=", project.id)
      .orderBy("queued_at")
      .execute();
    // The opened pull request's run has not started (no workers): the command is folded into it.
    expect(runs).toHaveLength(1);
    expect(runs.at(-1)).toEqual({
      id: posted.runId,
      trigger: "command",
      command: "full review",
      status: "queued",
    });

    const detail = v.parse(
      sandboxPullResponseSchema,
      (await get(token, SANDBOX_PULL_PATHS.pull(pull.id))).body,
    ).data;
    expect(detail.reviews.map(({ kind, author, body }) => ({ kind, author, body }))).toEqual([
      { kind: "comment", author: "sandbox-comment", body: "Looks **fine** to me." },
      { kind: "comment", author: "sandbox-comment", body: "Please have a look.\n@argus full review" },
    ]);
    expect(detail.latestRun).toEqual({ id: posted.runId, status: "queued" });

    expect((await post(token, SANDBOX_PULL_PATHS.pullComments(pull.id), { body: "  " })).status).toBe(400);
    const theirs = await signedInAccount(backend, "sandbox-comment-theirs");
    expect((await post(theirs.token, SANDBOX_PULL_PATHS.pullComments(pull.id), { body: "hi" })).status).toBe(
      404,
    );
  });

  it("is a 404 for another organisation's repository or pull request, a bad id, and refuses a bad body", async () => {
    const mine = await connected("sandbox-mine");
    const theirs = await signedInAccount(backend, "sandbox-theirs");
    const pull = await open(mine.token, mine.project.id, { template: "clean-change" });
    expect((await get(theirs.token, SANDBOX_PULL_PATHS.pulls(mine.project.id))).status).toBe(404);
    expect((await get(theirs.token, SANDBOX_PULL_PATHS.pull(pull.id))).status).toBe(404);
    expect(
      (await post(theirs.token, SANDBOX_PULL_PATHS.pullCommits(pull.id), { path: "a", content: "" })).status,
    ).toBe(404);
    expect(
      (await post(theirs.token, SANDBOX_PULL_PATHS.pulls(mine.project.id), { template: "leaked-key" }))
        .status,
    ).toBe(404);
    expect((await get(mine.token, SANDBOX_PULL_PATHS.pull("not-a-uuid"))).status).toBe(404);
    expect(
      (await post(mine.token, SANDBOX_PULL_PATHS.pulls(mine.project.id), { template: "nope" })).status,
    ).toBe(400);
    expect(
      (
        await post(mine.token, SANDBOX_PULL_PATHS.pulls(mine.project.id), {
          title: " ",
          path: "a",
          content: "",
        })
      ).status,
    ).toBe(400);
  });

  it("is a 404 for a repository that is not a sandbox one", async () => {
    const { token, project, orgId } = await connected("sandbox-real");
    await backend.db
      .updateTable("projects")
      .set({ properties: JSON.stringify({ full_name: "octo/real" }) })
      .where("id", "=", project.id)
      .execute();
    expect(await sandboxProject(backend.db, orgId, project.id)).toBeUndefined();
    expect((await get(token, SANDBOX_PULL_PATHS.pulls(project.id))).status).toBe(404);
  });

  it("the ReviewHost reads the pull request and its files, takes a review as GitHub would and reads its fingerprints back", async () => {
    const { token, project, orgId } = await connected("sandbox-host");
    const pull = await open(token, project.id, { template: "leaked-key" });
    const row = await sandboxProject(backend.db, orgId, project.id);
    if (!row) throw new Error("no sandbox project");
    const host = createSandboxReviewHost(backend.db, row);
    const markers = await testMarkersOf(project.id, pull.number);

    const info = await host.pullRequest(pull.number);
    expect(info).toMatchObject({
      number: 1,
      headSha: pull.headSha,
      state: "open",
      draft: false,
      baseRef: "main",
    });
    expect(info.url).toBe(`/sandbox/pulls/${pull.id}`);
    const files = await host.changedFiles(pull.number, info.baseSha, info.headSha);
    expect(files.map((file) => [file.filename, file.status])).toEqual([["src/config.ts", "modified"]]);
    expect(files[0]?.patch).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
    expect(await host.fileContent("src/config.ts", info.headSha)).toBe(templateOf("leaked-key").content);
    expect(await host.fileContent("src/config.ts", info.baseSha)).toBe(BASE_TREE["src/config.ts"]);
    expect(await host.fileContent("missing.ts", info.headSha)).toBeNull();
    expect(await host.postedFindings(pull.number, markers.findings)).toEqual(new Map());

    const tokenLine =
      templateOf("leaked-key")
        .content.split("\n")
        .findIndex((line) => line.includes("githubToken: env")) + 1;
    const posted = await host.postReview(pull.number, {
      commitSha: info.headSha,
      summary: "Argus found 1 problem.",
      comments: [
        {
          path: "src/config.ts",
          line: tokenLine,
          body: `A GitHub token. ${markers.finding(FINGERPRINT("a"))}`,
          fingerprint: FINGERPRINT("a"),
        },
        // Line 1 is outside the diff's hunk: GitHub would refuse it, so it goes into the summary.
        {
          path: "src/config.ts",
          line: 1,
          body: `Far away. ${markers.finding(FINGERPRINT("b"))}`,
          fingerprint: FINGERPRINT("b"),
        },
      ],
    });
    expect(posted).toEqual({
      posted: 1,
      movedToSummary: 1,
      movedFingerprints: [FINGERPRINT("b")],
      url: info.url,
    });
    await host.comment(pull.number, "Paused.");
    expect(await host.postedFindings(pull.number, markers.findings)).toEqual(
      new Map([
        [FINGERPRINT("b"), NO_FEEDBACK],
        [FINGERPRINT("a"), NO_FEEDBACK],
      ]),
    );

    const detail = v.parse(
      sandboxPullResponseSchema,
      (await get(token, SANDBOX_PULL_PATHS.pull(pull.id))).body,
    ).data;
    expect(detail.reviews).toEqual([
      expect.objectContaining({
        kind: "review",
        commitId: info.headSha,
        body: "Argus found 1 problem.\n\n**Comments outside the diff**\n- `src/config.ts:1`: Far away.",
        comments: [
          expect.objectContaining({
            path: "src/config.ts",
            line: tokenLine,
            side: "RIGHT",
            commitId: info.headSha,
            body: "A GitHub token.",
          }),
        ],
      }),
      expect.objectContaining({ kind: "comment", commitId: null, body: "Paused.", comments: [] }),
    ]);
    await expect(host.pullRequest(99)).rejects.toThrow("No sandbox pull request #99");
  });
});

describe("a sandbox pull request reviewed end to end", () => {
  const backends = testBackends("pglite");
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.start();
  });
  afterAll(() => backends.stop());

  /** A new account with the sandbox connected: its bearer header and first sample repository. */
  async function connectedSandbox(name: string) {
    const { token, orgId } = await signedInAccount(backend, name);
    const auth = { Authorization: `Bearer ${token}` };
    const github = v.parse(
      integrationResponseSchema,
      (await request(backend.app).get(API_PATHS.integration("github")).set(auth)).body,
    );
    const connect = sandboxConnectOf(github.data.links.oauth_url);
    await request(backend.app)
      .post(API_PATHS.githubSetup)
      .set(auth)
      .send({ org_id: orgId, ...connect });
    const { projects } = v.parse(
      projectsResponseSchema,
      (await request(backend.app).get(API_PATHS.projects).set(auth)).body,
    ).data;
    return { auth, projectId: projects[0]?.id ?? "" };
  }

  /** Opens a sandbox pull request and waits for its review; its page's data then. */
  async function reviewedPull(auth: Record<string, string>, projectId: string, body: object) {
    const created = await request(backend.app).post(SANDBOX_PULL_PATHS.pulls(projectId)).set(auth).send(body);
    const { id } = v.parse(sandboxPullCreatedSchema, created.body).data;
    const reviewed = async () => {
      const detail = v.parse(
        sandboxPullResponseSchema,
        (await request(backend.app).get(SANDBOX_PULL_PATHS.pull(id)).set(auth)).body,
      ).data;
      return detail.latestRun?.status === "succeeded" ? detail : undefined;
    };
    await expect.poll(reviewed, { timeout: 30_000, interval: 250 }).toBeDefined();
    return reviewed();
  }

  it("the leaked-key template gets the token flagged on its line, as GitHub would show it", async () => {
    const { auth, projectId } = await connectedSandbox("sandbox-e2e");
    const detail = await reviewedPull(auth, projectId, { template: "leaked-key" });
    const comments = detail?.reviews.flatMap((review) => review.comments) ?? [];
    const tokenLine =
      templateOf("leaked-key")
        .content.split("\n")
        .findIndex((line) => line.includes("githubToken: env")) + 1;
    expect(comments).toEqual([
      expect.objectContaining({ path: "src/config.ts", line: tokenLine, commitId: detail?.headSha }),
    ]);
    expect(comments[0]?.body).toContain("secrets/github");
    // The marker that lets later runs read back what was posted is not shown.
    expect(comments[0]?.body).not.toContain("argus:fp");
    // The review's check on the head commit, concluded, linking to the run's page.
    expect(detail?.checks).toEqual([
      expect.objectContaining({
        name: `${DEFAULT_PRODUCT_NAME} review`,
        conclusion: "success",
        title: "1 new finding",
        detailsUrl: `http://127.0.0.1:3000/reviews/${detail?.latestRun?.id}`,
      }),
    ]);
  }, 60_000);

  it("the unawaited-check template is flagged through src/stock.ts, which the pull request does not touch", async () => {
    const { auth, projectId } = await connectedSandbox("sandbox-imported");
    const detail = await reviewedPull(auth, projectId, { template: "unawaited-check" });
    const checkLine =
      templateOf("unawaited-check")
        .content.split("\n")
        .findIndex((line) => line.includes("if (!inStock(")) + 1;
    const comments = detail?.reviews.flatMap((review) => review.comments) ?? [];
    expect(comments).toEqual([expect.objectContaining({ path: "src/cart.ts", line: checkLine })]);
    expect(comments[0]?.body).toContain("logic/js-unawaited-async-condition");
  }, 60_000);

  it("a push that takes the flagged line out resolves the comment on it, as GitHub resolves a thread", async () => {
    const { auth, projectId } = await connectedSandbox("sandbox-resolve");
    const opened = await reviewedPull(auth, projectId, { template: "leaked-key" });
    if (!opened?.latestRun) throw new Error("the pull request was not reviewed");
    const firstRun = opened.latestRun.id;
    expect(opened.reviews.flatMap((review) => review.comments)).toEqual([
      expect.objectContaining({ path: "src/config.ts", resolved: false }),
    ]);

    await request(backend.app)
      .post(SANDBOX_PULL_PATHS.pullCommits(opened.id))
      .set(auth)
      .send({ path: "src/config.ts", content: BASE_TREE["src/config.ts"] });
    const afterPush = async () => {
      const detail = v.parse(
        sandboxPullResponseSchema,
        (await request(backend.app).get(SANDBOX_PULL_PATHS.pull(opened.id)).set(auth)).body,
      ).data;
      const run = detail.latestRun;
      return run && run.id !== firstRun && run.status === "succeeded" ? detail : undefined;
    };
    await expect.poll(afterPush, { timeout: 30_000, interval: 250 }).toBeDefined();
    const pushed = await afterPush();
    expect(pushed?.reviews.flatMap((review) => review.comments)).toEqual([
      expect.objectContaining({ path: "src/config.ts", resolved: true }),
    ]);
    // Only the new head's check shows: the first commit's stays with that commit.
    expect(pushed?.checks).toEqual([
      expect.objectContaining({ conclusion: "success", title: "No new findings" }),
    ]);
  }, 60_000);

  it("every sample repository carries a team rule, which flags the environment read outside src/config.ts", async () => {
    const { auth, projectId } = await connectedSandbox("sandbox-team-rule");
    const cart = BASE_TREE["src/cart.ts"] ?? "";
    const read = 'export const taxRate = Number(process.env.TAX_RATE ?? "0");';
    const detail = await reviewedPull(auth, projectId, {
      title: "Read the tax rate",
      path: "src/cart.ts",
      content: `${cart}\n${read}\n`,
    });
    const comments = detail?.reviews.flatMap((review) => review.comments) ?? [];
    expect(comments).toEqual([
      expect.objectContaining({ path: "src/cart.ts", line: cart.split("\n").length + 1 }),
    ]);
    expect(comments[0]?.body).toContain("team/config-from-env");
    expect(comments[0]?.body).toContain("outside src/config.ts");
  }, 60_000);
});
