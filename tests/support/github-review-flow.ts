/**
 * The review engine end to end on a test backend and the fake GitHub: an account that connected
 * one repository through the GitHub App, signed `pull_request` webhooks in, and the runs API out.
 * Used by tests/integration/{review-pipeline,ai-review,finding-feedback}.test.ts.
 */

import { randomUUID } from "node:crypto";
import { Webhooks } from "@octokit/webhooks";
import request from "supertest";
import * as v from "valibot";
import { expect } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { reviewRunResponseSchema, reviewRunsResponseSchema } from "../../shared/contract/reviews.ts";
import { signedInAccount } from "./backend-sessions.ts";
import { type FakeGitHub, fakeRepository } from "./fake-github.ts";
import { webhookExample } from "./github-webhook-examples.ts";

/** The webhook secret the backends of these tests verify deliveries with. */
export const WEBHOOK_SECRET = "webhook-secret-for-tests";

export interface ConnectedRepository {
  installation: number;
  /** The repository's name under `acme` and GitHub's id for it. */
  name: string;
  id: number;
}

/** Signs in `acme`, installs the App on its repository and connects it; answers the session token. */
export async function connectGitHubRepository(
  backend: Backend,
  github: FakeGitHub,
  repo: ConnectedRepository,
) {
  const account = await signedInAccount(backend, "acme");
  github.addInstallation({
    id: repo.installation,
    account: "acme",
    repositories: [fakeRepository("acme", repo.name, repo.id)],
  });
  const setup = await request(backend.app)
    .post(API_PATHS.githubSetup)
    .set("Authorization", `Bearer ${account.token}`)
    .send({
      org_id: account.orgId,
      installationId: repo.installation,
      code: github.installerCode(repo.installation),
    });
  expect(setup.status).toBe(200);
  return account.token;
}

export interface PullRequestDelivery {
  action: "opened" | "synchronize";
  installation: number;
  repositoryId: number;
  number: number;
  headSha: string;
  baseSha: string;
  delivery?: string;
}

/**
 * Delivers a signed `pull_request` webhook, as GitHub would, to the backend or through a gateway
 * in front of it; expects it accepted (202).
 */
export async function deliverPullRequest(
  to: { app: Parameters<typeof request>[0] },
  event: PullRequestDelivery,
) {
  const payload = webhookExample("pull_request", event.action);
  payload.installation = { id: event.installation, node_id: `I_${event.installation}` };
  payload.repository = { ...payload.repository, id: event.repositoryId };
  payload.pull_request = {
    ...payload.pull_request,
    number: event.number,
    head: { ...payload.pull_request.head, sha: event.headSha },
    base: { ...payload.pull_request.base, sha: event.baseSha },
  };
  const body = JSON.stringify(payload);
  const response = await request(to.app)
    .post(API_PATHS.githubWebhook)
    .set("Content-Type", "application/json")
    .set("X-GitHub-Event", "pull_request")
    .set("X-GitHub-Delivery", event.delivery ?? randomUUID())
    .set("X-Hub-Signature-256", await new Webhooks({ secret: WEBHOOK_SECRET }).sign(body))
    .send(body);
  expect(response.status).toBe(202);
  return response.body as { outcome: string };
}

/** The organisation's review runs, newest first, as the runs API answers them. */
export async function reviewRuns(backend: Backend, token: string) {
  const response = await request(backend.app).get(API_PATHS.reviews).set("Authorization", `Bearer ${token}`);
  return v.parse(reviewRunsResponseSchema, response.body).data;
}

/** One review run with its findings and decisions, as the run detail API answers it. */
export async function reviewRunDetail(backend: Backend, token: string, runId: string) {
  const response = await request(backend.app)
    .get(API_PATHS.reviewRun(runId))
    .set("Authorization", `Bearer ${token}`);
  return v.parse(reviewRunResponseSchema, response.body).data;
}

/** Waits until no run is queued or running. */
export async function settleRuns(backend: Backend, token: string) {
  await expect
    .poll(
      async () =>
        (await reviewRuns(backend, token)).every(
          (run) => run.status !== "queued" && run.status !== "running",
        ),
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
}
