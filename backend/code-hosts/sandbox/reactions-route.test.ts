/**
 * 👍/👎 on the sandbox's review comments (decision 021): the reaction call stores the person's
 * reaction and the finding's feedback at once, the pull request page answers the counts, and the
 * next run of the repository does not post a finding that got a 👎.
 */
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { reviewRunResponseSchema } from "../../../shared/contract/reviews.ts";
import {
  SANDBOX_PULL_PATHS,
  sandboxPullCreatedSchema,
  sandboxPullResponseSchema,
  sandboxReactionsResponseSchema,
} from "../../../shared/contract/sandbox.ts";
import { signedInAccount } from "../../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import { FAST_QUEUE } from "../../../tests/support/review-queue.ts";
import { sandboxConnectedAccount } from "../../../tests/support/sandbox-accounts.ts";
import { bearerCalls, testBackends } from "../../../tests/support/test-backend.ts";
import type { Backend } from "../../app.ts";
import { templateOf } from "./samples.ts";

describe.each(TEST_DATABASE_KINDS)("sandbox comment reactions on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.start({ REVIEW_WORKERS: "1" }, { queue: FAST_QUEUE });
  });
  afterAll(() => backends.stop());
  const { get, post } = bearerCalls(() => backend.app);

  const connected = (name: string) => sandboxConnectedAccount(backend, name);

  /** The pull request once its newest run ended. */
  async function reviewed(token: string, pullId: string, headSha: string) {
    const read = async () =>
      v.parse(sandboxPullResponseSchema, (await get(token, SANDBOX_PULL_PATHS.pull(pullId))).body).data;
    await expect
      .poll(
        async () => {
          const pull = await read();
          return pull.headSha === headSha && pull.latestRun?.status === "succeeded";
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    return read();
  }

  it("takes a 👎 on a comment, counts it, and the next run suppresses the finding", async () => {
    const { token, project } = await connected("reactions");
    const opened = v.parse(
      sandboxPullCreatedSchema,
      (await post(token, SANDBOX_PULL_PATHS.pulls(project.id), { template: "leaked-key" })).body,
    ).data;
    const first = await reviewed(token, opened.id, opened.headSha);
    const [comment] = first.reviews.flatMap((review) => review.comments);
    if (!comment) throw new Error("the leaked key was not commented on");
    expect(comment.reactions).toEqual({ "+1": 0, "-1": 0, mine: [] });

    const react = (body: unknown, id = comment.id, as = token) =>
      post(as, SANDBOX_PULL_PATHS.commentReactions(id), body);
    const down = await react({ content: "-1", pressed: true });
    expect(down.status).toBe(200);
    expect(v.parse(sandboxReactionsResponseSchema, down.body).data).toEqual({
      "+1": 0,
      "-1": 1,
      mine: ["-1"],
    });
    // Pressing again is still one reaction; 👍 and 👎 are separate toggles.
    await react({ content: "-1", pressed: true });
    const up = v.parse(
      sandboxReactionsResponseSchema,
      (await react({ content: "+1", pressed: true })).body,
    ).data;
    expect(up).toEqual({ "+1": 1, "-1": 1, mine: ["+1", "-1"] });
    const released = await react({ content: "+1", pressed: false });
    expect(v.parse(sandboxReactionsResponseSchema, released.body).data).toEqual({
      "+1": 0,
      "-1": 1,
      mine: ["-1"],
    });
    expect((await react({ content: "heart", pressed: true })).status).toBe(400);
    expect((await react({ content: "-1", pressed: true }, 999_999)).status).toBe(404);
    const stranger = await signedInAccount(backend, "stranger");
    expect((await react({ content: "-1", pressed: true }, comment.id, stranger.token)).status).toBe(404);

    // Stored at once, before any run.
    const feedback = await backend.db
      .selectFrom("finding_feedback")
      .selectAll()
      .where("project_id", "=", project.id)
      .execute();
    expect(feedback).toEqual([
      expect.objectContaining({ thumbs_up: 0, thumbs_down: 1, suppressed_at: expect.any(Date) }),
    ]);
    const again = v.parse(
      sandboxPullResponseSchema,
      (await get(token, SANDBOX_PULL_PATHS.pull(opened.id))).body,
    ).data;
    expect(again.reviews[0]?.comments[0]?.reactions).toEqual({ "+1": 0, "-1": 1, mine: ["-1"] });

    // A push adds the token line again: the run records the finding as suppressed and posts no comment.
    const content = templateOf("leaked-key").content;
    const tokenLine = content.split("\n").find((line) => line.includes("githubToken: env")) ?? "";
    const pushed = v.parse(
      sandboxPullCreatedSchema,
      (
        await post(token, SANDBOX_PULL_PATHS.pullCommits(opened.id), {
          path: "src/config.ts",
          content: content.replace(tokenLine, `${tokenLine}\n${tokenLine}`),
        })
      ).body,
    ).data;
    const second = await reviewed(token, opened.id, pushed.headSha);
    expect(second.reviews.flatMap((review) => review.comments)).toHaveLength(1);
    const run = v.parse(
      reviewRunResponseSchema,
      (await get(token, API_PATHS.reviewRun(second.latestRun?.id ?? ""))).body,
    ).data;
    expect(
      run.findings.map(({ finding, delivery, feedback: counts }) => [finding.ruleId, delivery, counts]),
    ).toEqual([["secrets/github", "suppressed", { thumbsUp: 0, thumbsDown: 1 }]]);
    expect(run.decisions.map((decision) => `${decision.step}: ${decision.outcome}`)).toContain(
      "feedback.suppressed: suppressed",
    );
  }, 120_000);
});
