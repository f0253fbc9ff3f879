/**
 * The AI pass end to end on one backend: the organisation's model saved through the API, a GitHub
 * webhook, the pipeline asking the AI SDK provider, which talks to the fake OpenAI-compatible
 * server, and the review posted to the fake GitHub with the grounded finding inline.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { TEST_DATABASE_KINDS } from "../support/databases.ts";
import { type FakeGitHub, gitHubAppEnv, startFakeGitHub } from "../support/fake-github.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../support/fake-model-servers.ts";
import {
  connectGitHubRepository,
  deliverPullRequest,
  reviewRunDetail,
  reviewRuns,
  WEBHOOK_SECRET,
} from "../support/github-review-flow.ts";
import { FAST_QUEUE } from "../support/review-queue.ts";
import { testBackends } from "../support/test-backend.ts";

const API_KEY = "sk-test-ai-review-7c1d2e";
const REPO = "acme/shop";
const INSTALLATION = 71;
const BASE = "b".repeat(40);
const HEAD = "c".repeat(40);
const QUERY_LINE = "  return db.query(ORDER_BY_ID + id);";
const PATCH = [
  "@@ -0,0 +1,4 @@",
  "+export function order(db: Db, id: string) {",
  "+  debugger;",
  `+${QUERY_LINE}`,
  "+}",
].join("\n");

describe.each(TEST_DATABASE_KINDS)("the AI review through the real provider on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let github: FakeGitHub;
  let model: FakeModelServer;
  let token: string;

  beforeAll(async () => {
    github = await startFakeGitHub();
    model = await startFakeOpenAiServer({ requireKey: API_KEY });
    backend = await backends.start(
      {
        ...gitHubAppEnv(github),
        GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
        REVIEW_WORKERS: "1",
        SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
        AI_MODEL_PRICES: JSON.stringify({ "qwen-review": { input: 1, output: 4 } }),
      },
      { queue: FAST_QUEUE },
    );
    token = await connectGitHubRepository(backend, github, {
      installation: INSTALLATION,
      name: "shop",
      id: 710,
    });
    await request(backend.app)
      .put(API_PATHS.aiModel)
      .set("Authorization", `Bearer ${token}`)
      .send({
        kind: "openai-compatible",
        baseUrl: model.baseUrl,
        model: "qwen-review",
        apiKey: API_KEY,
        inputTokenLimit: 32_000,
        monthlyBudgetCents: 500,
      })
      .expect(200);

    github.pulls.addPullRequest(REPO, {
      number: 4,
      title: "Orders",
      author: { login: "octocat", type: "User" },
      head: { ref: "orders", sha: HEAD },
      base: { ref: "main", sha: BASE },
    });
    github.pulls.setDiff(REPO, BASE, HEAD, [{ filename: "src/orders.ts", status: "added", patch: PATCH }]);
  });

  afterAll(async () => {
    await backends.stop();
    await github?.close();
    await model?.close();
  });

  const deliverOpened = () =>
    deliverPullRequest(backend, {
      action: "opened",
      installation: INSTALLATION,
      repositoryId: 710,
      number: 4,
      headSha: HEAD,
      baseSha: BASE,
    });

  const runs = () => reviewRuns(backend, token);

  it("posts the model's grounded finding inline beside the built-in one, with tokens and cost on the run", async () => {
    model.script({
      json: {
        findings: [
          {
            path: "src/orders.ts",
            line: 3,
            quote: QUERY_LINE.trim(),
            severity: "critical",
            title: "SQL injection",
            message: "The id is pasted into the SQL text; pass it as a query parameter.",
          },
        ],
      },
      usage: { inputTokens: 2_000, outputTokens: 150 },
    });
    await deliverOpened();
    await expect
      .poll(async () => (await runs())[0]?.status, { timeout: 60_000, interval: 250 })
      .toBe("succeeded");

    const [asked] = model.requests;
    expect(asked?.carriesKey(API_KEY)).toBe(true);
    expect(asked?.text).toContain(`3 +${QUERY_LINE}`);
    expect(asked?.text).toContain("src/orders.ts:2 [markers/debugger");

    const [review] = github.pulls.reviews;
    expect(review?.comments.map((comment) => [comment.path, comment.line])).toEqual([
      ["src/orders.ts", 3],
      ["src/orders.ts", 2],
    ]);
    expect(review?.comments[0]?.body).toContain("`ai/review`");
    expect(review?.body).toContain("**AI review** (qwen-review): 1 finding on its line");
    expect(review?.body).toContain("2,000 input and 150 output tokens, $0.0026.");

    const run = (await runs())[0];
    const detail = await reviewRunDetail(backend, token, run?.id ?? "");
    expect(detail.ai).toEqual({
      outcome: "reviewed",
      model: "qwen-review",
      inputTokens: 2_000,
      outputTokens: 150,
      costMicros: 2_600,
      note: null,
    });
    expect(JSON.stringify(detail)).not.toContain(API_KEY);
  });
});
