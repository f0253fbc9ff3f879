/**
 * The review engine end to end on one backend: GitHub webhooks in, the queue, the pipeline with
 * the built-in reviewer, reviews posted to the fake GitHub, and the review-run API reading it all.
 */

import { randomUUID } from "node:crypto";
import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { RUN_FINDINGS_KEPT_MAX } from "../../backend/review/queue/runs.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { reviewRetryResponseSchema, reviewRunsResponseSchema } from "../../shared/contract/reviews.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../support/databases.ts";
import { type FakeGitHub, gitHubAppEnv, startFakeGitHub } from "../support/fake-github.ts";
import {
  connectGitHubRepository,
  deliverPullRequest,
  reviewRunDetail,
  reviewRuns,
  settleRuns,
  WEBHOOK_SECRET,
} from "../support/github-review-flow.ts";
import { FAST_QUEUE } from "../support/review-queue.ts";
import { testBackends } from "../support/test-backend.ts";

const REPO = "acme/alpha";
const INSTALLATION = 61;
const BASE = "b".repeat(40);
/** Head i: the pull request adds src/f0.ts … src/f{i}.ts, each with a `debugger;` line. */
const head = (i: number) => (i + 1).toString(16).padStart(40, "0");
const file = (i: number) => ({
  filename: `src/f${i}.ts`,
  status: "added" as const,
  patch: `@@ -0,0 +1,2 @@\n+export const value${i} = ${i};\n+debugger;`,
});
const PUSHES = 10;
/** The fingerprint of a marker the engine wrote (backend/review/pipeline/markers.ts), whatever its signature. */
const FINGERPRINT_MARKER = /<!-- argus:fp:([0-9a-f]{64}):[0-9a-f]{32} -->/g;

describe.each(TEST_DATABASE_KINDS)("the review engine on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let github: FakeGitHub;
  let token: string;

  beforeAll(async () => {
    github = await startFakeGitHub();
    backend = await backends.start(
      { ...gitHubAppEnv(github), GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET, REVIEW_WORKERS: "2" },
      { queue: FAST_QUEUE },
    );
    token = await connectGitHubRepository(backend, github, {
      installation: INSTALLATION,
      name: "alpha",
      id: 610,
    });

    github.pulls.addPullRequest(REPO, {
      number: 12,
      title: "Values",
      author: { login: "octocat", type: "User" },
      head: { ref: "values", sha: head(0) },
      base: { ref: "main", sha: BASE },
    });
    // Every range a run may ask for: from the base, and from any earlier head.
    for (let to = 0; to <= PUSHES; to++) {
      const files = Array.from({ length: to + 1 }, (_, i) => file(i));
      github.pulls.setDiff(REPO, BASE, head(to), files);
      for (let from = 0; from < to; from++)
        github.pulls.setDiff(REPO, head(from), head(to), files.slice(from + 1));
    }
  });

  afterAll(async () => {
    await backends.stop();
    await github?.close();
  });

  const deliver = (action: "opened" | "synchronize", sha: string, delivery?: string) =>
    deliverPullRequest(backend, {
      action,
      installation: INSTALLATION,
      repositoryId: 610,
      number: 12,
      headSha: sha,
      baseSha: BASE,
      delivery,
    });
  const runs = () => reviewRuns(backend, token);
  const settled = () => settleRuns(backend, token);
  const inlineFingerprints = () =>
    github.pulls.reviews.flatMap((review) =>
      review.comments.flatMap((comment) => [...comment.body.matchAll(FINGERPRINT_MARKER)].map((m) => m[1])),
    );

  it("reviews an opened pull request once, however often the delivery comes", async () => {
    const delivery = randomUUID();
    expect((await deliver("opened", head(0), delivery)).outcome).toBe("queued");
    expect((await deliver("opened", head(0), delivery)).outcome).toBe("duplicate");
    await settled();
    expect(github.pulls.reviews.map((review) => review.commitId)).toEqual([head(0)]);
    expect(github.pulls.reviews[0]?.comments).toEqual([
      expect.objectContaining({ path: "src/f0.ts", line: 2, side: "RIGHT" }),
    ]);

    const [run] = await runs();
    expect(run).toMatchObject({
      repository: REPO,
      pullRequest: 12,
      pullRequestTitle: "Values",
      pullRequestUrl: "https://github.com/acme/alpha/pull/12",
      status: "succeeded",
      findingsTotal: 1,
      findingsPosted: 1,
      shadow: false,
    });
    const detail = await reviewRunDetail(backend, token, run?.id ?? "");
    expect(detail.headCommitUrl).toBe(`https://github.com/acme/alpha/commit/${head(0)}`);
    expect(detail.findings).toEqual([
      {
        finding: expect.objectContaining({ ruleId: "markers/debugger", path: "src/f0.ts", line: 2 }),
        delivery: "inline",
        shadowDelivery: null,
        notPostedReason: null,
        feedback: { thumbsUp: 0, thumbsDown: 0 },
      },
    ]);
    expect(detail.decisions.map((decision) => `${decision.step}: ${decision.outcome}`)).toContain(
      "post: posted",
    );
  });

  it("reviews ten rapid pushes once per reviewed head, with no comment posted twice", async () => {
    for (let i = 1; i <= PUSHES; i++) {
      github.pulls.pushTo(REPO, 12, head(i));
      await deliver("synchronize", head(i));
    }
    await settled();
    const heads = github.pulls.reviews.map((review) => review.commitId);
    expect(new Set(heads).size).toBe(heads.length);
    expect(heads.at(-1)).toBe(head(PUSHES));
    // Coalescing: fewer runs than pushes.
    expect((await runs()).length).toBeLessThan(PUSHES + 1);
    const fingerprints = inlineFingerprints();
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    // Every file's `debugger;` got exactly one comment.
    expect(fingerprints).toHaveLength(PUSHES + 1);
  });

  it("keeps other organisations out, retries a run through the queue, and streams run changes", async () => {
    const [latest] = await runs();
    const byProject = await request(backend.app)
      .get(`${API_PATHS.reviews}?projectId=${latest?.projectId}`)
      .set("Authorization", `Bearer ${token}`);
    expect(v.parse(reviewRunsResponseSchema, byProject.body).data.map((run) => run.id)).toEqual(
      (await runs()).map((run) => run.id),
    );
    const otherProject = await request(backend.app)
      .get(`${API_PATHS.reviews}?projectId=${randomUUID()}`)
      .set("Authorization", `Bearer ${token}`);
    expect(v.parse(reviewRunsResponseSchema, otherProject.body).data).toEqual([]);
    expect(
      (
        await request(backend.app)
          .get(`${API_PATHS.reviews}?projectId=web`)
          .set("Authorization", `Bearer ${token}`)
      ).status,
    ).toBe(400);
    const stranger = await signedInAccount(backend, "stranger");
    const foreign = await request(backend.app)
      .get(API_PATHS.reviewRun(latest?.id ?? ""))
      .set("Authorization", `Bearer ${stranger.token}`);
    expect(foreign.status).toBe(404);
    const strangerList = await request(backend.app)
      .get(API_PATHS.reviews)
      .set("Authorization", `Bearer ${stranger.token}`);
    expect(v.parse(reviewRunsResponseSchema, strangerList.body).data).toEqual([]);
    expect(
      (
        await request(backend.app)
          .post(API_PATHS.reviewRunRetry(latest?.id ?? ""))
          .set("Authorization", `Bearer ${stranger.token}`)
      ).status,
    ).toBe(404);
    expect(
      (
        await request(backend.app)
          .get(API_PATHS.reviewRun("not-a-run"))
          .set("Authorization", `Bearer ${token}`)
      ).status,
    ).toBe(404);

    // The event stream, on a real socket: a retry's run arrives as `run` events.
    const server = backend.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const controller = new AbortController();
    try {
      const stream = await fetch(`http://127.0.0.1:${port}${API_PATHS.reviewEvents}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      expect(stream.headers.get("content-type")).toContain("text/event-stream");
      expect(stream.headers.get("cache-control")).toBe("no-cache, no-transform");
      const reader = stream.body?.getReader();
      const retry = await request(backend.app)
        .post(API_PATHS.reviewRunRetry(latest?.id ?? ""))
        .set("Authorization", `Bearer ${token}`);
      expect(retry.status).toBe(202);
      const retried = v.parse(reviewRetryResponseSchema, retry.body).data;
      expect(retried).toMatchObject({ trigger: "command", command: "review", pullRequest: 12 });

      let text = "";
      const decoder = new TextDecoder();
      while (
        !text.includes(`"id":"${retried.id}","projectId"`) ||
        !/"status":"(succeeded|skipped)"/.test(text)
      ) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
      expect(text).toContain("event: run\ndata: ");
      expect(text).toContain(`"id":"${retried.id}"`);
      expect(text).toContain('"status":"running"');
      expect(text).toContain('"status":"succeeded"');
      // The stranger's organisation hears nothing of it (checked by the filter on org id).
    } finally {
      controller.abort();
      server.closeAllConnections();
      server.close();
    }
    await settled();
    // The retry's run records the head it reviewed: the pull request's, as the first run saw it.
    const [retriedRun] = await runs();
    expect(retriedRun?.id).not.toBe(latest?.id);
    expect(latest?.headSha).toMatch(/^[0-9a-f]{40}$/);
    expect(retriedRun?.headSha).toBe(latest?.headSha);
    // Nothing was pushed since the last review: the retry reviewed the whole pull request again,
    // found what the first run posted and posted none of it twice.
    const again = await reviewRunDetail(backend, token, retriedRun?.id ?? "");
    expect(again.decisions.map((decision) => `${decision.step}: ${decision.outcome}`)).toEqual(
      expect.arrayContaining(["diff.range: base", "diff: from base"]),
    );
    expect(again.findings.length).toBeGreaterThan(0);
    expect(again.findings.map((finding) => finding.delivery)).toEqual(again.findings.map(() => "duplicate"));
    const fingerprints = inlineFingerprints();
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it("lists at most RUN_FINDINGS_KEPT_MAX findings of a run recorded before runs kept no more", async () => {
    const [latest] = await runs();
    const [recorded] = (await reviewRunDetail(backend, token, latest?.id ?? "")).findings;
    const extra = RUN_FINDINGS_KEPT_MAX + 3;
    const fingerprintOf = (index: number) => `0f${index.toString(16).padStart(62, "0")}`;
    await backend.db
      .insertInto("review_findings")
      .values(
        Array.from({ length: extra }, (_, index) => ({
          run_id: latest?.id ?? "",
          fingerprint: fingerprintOf(index),
          delivery: "not_posted",
          shadow_delivery: null,
          finding: JSON.stringify({ ...recorded?.finding, fingerprint: fingerprintOf(index) }),
        })),
      )
      .execute();
    const detail = await reviewRunDetail(backend, token, latest?.id ?? "");
    expect(detail.findings).toHaveLength(RUN_FINDINGS_KEPT_MAX);
    // In the order they were recorded: the run's own first.
    expect(detail.findings[0]?.finding.fingerprint).toBe(recorded?.finding.fingerprint);
    await backend.db
      .deleteFrom("review_findings")
      .where(
        "fingerprint",
        "in",
        Array.from({ length: extra }, (_, index) => fingerprintOf(index)),
      )
      .execute();
  });

  it("marks a run reviewed in shadow mode, which posts nothing", async () => {
    const saved = await request(backend.app)
      .put(API_PATHS.settingsCategory("comment_style"))
      .set("Authorization", `Bearer ${token}`)
      .send({ value: { shadow_mode: true } });
    expect(saved.status).toBe(200);
    const [latest] = await runs();
    const reviewsBefore = github.pulls.reviews.length;
    const retry = await request(backend.app)
      .post(API_PATHS.reviewRunRetry(latest?.id ?? ""))
      .set("Authorization", `Bearer ${token}`);
    const shadowRun = v.parse(reviewRetryResponseSchema, retry.body).data;
    await settled();
    const listed = await runs();
    expect(listed.find((run) => run.id === shadowRun.id)).toMatchObject({
      status: "succeeded",
      shadow: true,
    });
    expect(listed.filter((run) => run.shadow)).toHaveLength(1);
    expect(github.pulls.reviews).toHaveLength(reviewsBefore);
    const detail = await reviewRunDetail(backend, token, shadowRun.id);
    expect(detail.shadow).toBe(true);
    expect(detail.decisions.map((decision) => `${decision.step}: ${decision.outcome}`)).toContain(
      "post: shadow",
    );
  });
});
