/**
 * 👍/👎 on posted findings, end to end on the fake GitHub (decision 021): a person reacts to a
 * review comment through GitHub's reactions endpoint, the next run reads the rollup, and a 👎
 * suppresses that fingerprint in the repository from then on, on this pull request and on others,
 * even once the 👎 is taken back. The 👍 counts reach the run detail API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { fingerprint } from "../../backend/review/pipeline/findings.ts";
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

const REPO = "acme/feedback";
const INSTALLATION = 71;
const REPOSITORY_ID = 710;
const BASE = "b".repeat(40);
const sha = (n: number) => n.toString(16).padStart(40, "0");
/** `debugger;` in src/noisy.ts (the one people 👎) and in src/useful.ts (the one they 👍). */
const NOISY = fingerprint("markers/debugger", "src/noisy.ts", "debugger;");
const USEFUL = fingerprint("markers/debugger", "src/useful.ts", "debugger;");
const added = (path: string) => ({
  filename: path,
  status: "added" as const,
  patch: "@@ -0,0 +1,2 @@\n+export const value = 1;\n+debugger;",
});
/** A push that adds `debugger;` to src/noisy.ts again, above the one already there (same fingerprint). */
const pushedAgain = (lines: number) => ({
  filename: "src/noisy.ts",
  status: "modified" as const,
  patch: `@@ -1,${lines} +1,${lines + 1} @@\n export const value = 1;\n+debugger;\n debugger;`,
});

describe.each(TEST_DATABASE_KINDS)("finding feedback on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let github: FakeGitHub;
  let token: string;
  const people: string[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub();
    backend = await backends.start(
      { ...gitHubAppEnv(github), GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET, REVIEW_WORKERS: "1" },
      { queue: FAST_QUEUE },
    );
    token = await connectGitHubRepository(backend, github, {
      installation: INSTALLATION,
      name: "feedback",
      id: REPOSITORY_ID,
    });
    for (const [id, login] of [
      [501, "ada"],
      [502, "grace"],
    ] as const) {
      people.push(`token ${github.addUser({ id, login, name: null, emails: [] })}`);
    }

    github.pulls.addPullRequest(REPO, {
      number: 21,
      title: "Two values",
      author: { login: "octocat", type: "User" },
      head: { ref: "values", sha: sha(1) },
      base: { ref: "main", sha: BASE },
    });
    const opened = [added("src/noisy.ts"), added("src/useful.ts")];
    github.pulls.setDiff(REPO, BASE, sha(1), opened);
    github.pulls.setDiff(REPO, sha(1), sha(2), [pushedAgain(2)]);
    github.pulls.setDiff(REPO, BASE, sha(2), opened);
    github.pulls.setDiff(REPO, sha(2), sha(3), [pushedAgain(3)]);
    github.pulls.setDiff(REPO, BASE, sha(3), opened);
  });

  afterAll(async () => {
    await backends.stop();
    await github?.close();
  });

  const deliver = (number: number, action: "opened" | "synchronize", head: string) =>
    deliverPullRequest(backend, {
      action,
      installation: INSTALLATION,
      repositoryId: REPOSITORY_ID,
      number,
      headSha: head,
      baseSha: BASE,
    });

  const runs = () => reviewRuns(backend, token);
  /** Waits for every run to end; answers the newest. */
  async function settledRun() {
    await settleRuns(backend, token);
    const [newest] = await runs();
    if (!newest) throw new Error("no run");
    return detail(newest.id);
  }
  const detail = (runId: string) => reviewRunDetail(backend, token, runId);
  const deliveryOf = (run: Awaited<ReturnType<typeof detail>>, fp: string) =>
    run.findings.find((entry) => entry.finding.fingerprint === fp)?.delivery;

  /** The review comments of pull request 21, as a person reads them (with the reactions rollup). */
  async function comments() {
    const response = await fetch(`${github.url}/repos/${REPO}/pulls/21/comments`, {
      headers: { authorization: people[0] ?? "" },
    });
    return (await response.json()) as Array<{ id: number; body: string; reactions: Record<string, number> }>;
  }
  async function react(person: string, commentId: number, content: "+1" | "-1") {
    const response = await fetch(`${github.url}/repos/${REPO}/pulls/comments/${commentId}/reactions`, {
      method: "POST",
      headers: { authorization: person, "content-type": "application/json" },
      body: JSON.stringify({ content }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  }
  const commentOn = async (fp: string) => {
    const found = (await comments()).find((comment) => comment.body.includes(fp));
    if (!found) throw new Error("no comment carries that fingerprint");
    return found.id;
  };

  it("suppresses a fingerprint after a 👎, on every later run and pull request, and shows the 👍 counts", async () => {
    await deliver(21, "opened", sha(1));
    const first = await settledRun();
    expect(deliveryOf(first, NOISY)).toBe("inline");
    expect(deliveryOf(first, USEFUL)).toBe("inline");

    const [ada = "", grace = ""] = people;
    const thumbsDown = await react(ada, await commentOn(NOISY), "-1");
    await react(ada, await commentOn(USEFUL), "+1");
    await react(grace, await commentOn(USEFUL), "+1");

    // A push adds the noisy line again: run 2 reads the 👎 and does not post it.
    const reviewsBefore = github.pulls.reviews.length;
    github.pulls.pushTo(REPO, 21, sha(2));
    await deliver(21, "synchronize", sha(2));
    const second = await settledRun();
    expect(deliveryOf(second, NOISY)).toBe("suppressed");
    const steps = second.decisions.filter((decision) => decision.step.startsWith("feedback"));
    expect(steps.map(({ step, outcome, detail }) => ({ step, outcome, detail }))).toEqual([
      { step: "feedback", outcome: "synced", detail: { posted_findings: 2, thumbs_up: 2, thumbs_down: 1 } },
      {
        step: "feedback.suppressed",
        outcome: "suppressed",
        detail: { count: 1, rules: ["markers/debugger"] },
      },
    ]);
    const newComments = github.pulls.reviews.slice(reviewsBefore).flatMap((review) => review.comments);
    expect(newComments).toEqual([]);

    // The 👎 is taken back; run 3 still suppresses the fingerprint.
    const removed = await fetch(
      `${github.url}/repos/${REPO}/pulls/comments/${await commentOn(NOISY)}/reactions/${thumbsDown}`,
      { method: "DELETE", headers: { authorization: ada } },
    );
    expect(removed.status).toBe(204);
    github.pulls.pushTo(REPO, 21, sha(3));
    await deliver(21, "synchronize", sha(3));
    const third = await settledRun();
    expect(deliveryOf(third, NOISY)).toBe("suppressed");
    expect(third.decisions.map((decision) => `${decision.step}: ${decision.outcome}`)).toContain(
      "feedback.suppressed: suppressed",
    );

    // The run detail carries the counts: 2 × 👍 on the useful finding.
    const firstAgain = await detail(first.id);
    expect(firstAgain.findings.find((entry) => entry.finding.fingerprint === USEFUL)?.feedback).toEqual({
      thumbsUp: 2,
      thumbsDown: 0,
    });

    // Another pull request of the repository: the noisy line is not posted, the useful one is.
    github.pulls.addPullRequest(REPO, {
      number: 22,
      title: "More values",
      author: { login: "octocat", type: "User" },
      head: { ref: "more", sha: sha(9) },
      base: { ref: "main", sha: BASE },
    });
    github.pulls.setDiff(REPO, BASE, sha(9), [added("src/noisy.ts"), added("src/useful.ts")]);
    await deliver(22, "opened", sha(9));
    const other = await settledRun();
    expect(other.pullRequest).toBe(22);
    expect(deliveryOf(other, NOISY)).toBe("suppressed");
    expect(deliveryOf(other, USEFUL)).toBe("inline");
    const posted = github.pulls.reviews.filter((review) => review.pullRequest === 22);
    expect(posted.flatMap((review) => review.comments.map((comment) => comment.path))).toEqual([
      "src/useful.ts",
    ]);
  });
});
