import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, fakeRepository, startFakeGitHub } from "../../../tests/support/fake-github.ts";
import { testMarkersOf } from "../../../tests/support/review-markers.ts";
import { NO_FEEDBACK } from "../../review/pipeline/feedback.ts";
import type { PullRequestMarkers } from "../../review/pipeline/markers.ts";
import { CommitNotFoundError, type ReviewHost } from "../review-host.ts";
import { githubReviewHosts } from "./review-adapter.ts";

const REPO = "acme/web";
const BASE = "b".repeat(40);
const HEAD = "c".repeat(40);
const PATCH = "@@ -1,2 +1,3 @@\n const a = 1;\n+debugger;\n const b = 2;";
const fp = (n: number) => String(n).repeat(64).slice(0, 64);

let github: FakeGitHub;
let host: ReviewHost;
let markers: PullRequestMarkers;

beforeAll(async () => {
  github = await startFakeGitHub();
  github.addInstallation({ id: 31, account: "acme", repositories: [fakeRepository("acme", "web", 100)] });
  github.pulls.addPullRequest(REPO, {
    number: 7,
    title: "Add a feature",
    author: { login: "octocat", type: "User" },
    draft: true,
    head: { ref: "feature", sha: HEAD },
    base: { ref: "main", sha: BASE },
  });
  github.pulls.setDiff(REPO, BASE, HEAD, [
    { filename: "src/a.ts", status: "modified", patch: PATCH },
    { filename: "logo.png", status: "added" },
  ]);
  github.pulls.setContent(REPO, HEAD, "src/a.ts", "const a = 1;\ndebugger;\nconst b = 2;\n");
  host = githubReviewHosts({
    appId: github.appId,
    privateKey: github.appPrivateKey,
    apiUrl: github.url,
    retryAfterBaseMs: 10,
  })("31", REPO);
  markers = await testMarkersOf("project-web", 7);
});

afterAll(() => github.close());

describe("the GitHub review host", () => {
  it("reads the pull request, its changed files and a file at head with an installation token", async () => {
    expect(await host.pullRequest(7)).toEqual({
      number: 7,
      title: "Add a feature",
      url: "https://github.com/acme/web/pull/7",
      author: { login: "octocat", isBot: false },
      draft: true,
      state: "open",
      headSha: HEAD,
      baseSha: BASE,
      headRef: "feature",
      baseRef: "main",
    });
    expect(await host.changedFiles(7, BASE, HEAD)).toEqual([
      { filename: "src/a.ts", status: "modified", additions: 1, deletions: 0, patch: PATCH },
      { filename: "logo.png", status: "added", additions: 0, deletions: 0 },
    ]);
    expect(await host.fileContent("src/a.ts", HEAD)).toBe("const a = 1;\ndebugger;\nconst b = 2;\n");
    expect(await host.fileContent("src/missing.ts", HEAD)).toBeNull();
    expect(github.calls).toContain(`POST /app/installations/31/access_tokens`);
  });

  it("lists the files directly in a folder at a commit (team rules at the base), none when it is missing", async () => {
    github.pulls.setContent(REPO, BASE, ".argus/rules/no-eval.yml", "id: no-eval\n");
    github.pulls.setContent(REPO, BASE, ".argus/rules/sql.yaml", "id: sql\n");
    github.pulls.setContent(REPO, BASE, ".argus/rules/old/legacy.yml", "id: legacy\n");
    expect((await host.listFiles?.(".argus/rules", BASE))?.sort()).toEqual([
      ".argus/rules/no-eval.yml",
      ".argus/rules/sql.yaml",
    ]);
    // The head has no such folder: the pull request's own rules are never asked for here.
    expect(await host.listFiles?.(".argus/rules", HEAD)).toEqual([]);
  });

  it("says which commit it lost when GitHub cannot compare from it (a force-push)", async () => {
    const gone = "e".repeat(40);
    await expect(host.changedFiles(7, gone, HEAD)).rejects.toBeInstanceOf(CommitNotFoundError);
  });

  it("posts a review with line comments, waits out a secondary rate limit, and reads its markers back", async () => {
    github.pulls.rateLimitNextReview = true;
    const posted = await host.postReview(7, {
      commitSha: HEAD,
      summary: `Summary ${markers.finding(fp(1))}`,
      comments: [
        { path: "src/a.ts", line: 2, body: `Debugger ${markers.finding(fp(2))}`, fingerprint: fp(2) },
      ],
      requestChanges: true,
    });
    expect(posted).toMatchObject({ posted: 1, movedToSummary: 0 });
    // Refused once with retry-after, then taken.
    expect(github.calls.filter((call) => call === "POST /repos/acme/web/pulls/7/reviews")).toHaveLength(2);
    const reviews = github.pulls.reviews.filter((review) => review.pullRequest === 7);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({
      event: "REQUEST_CHANGES",
      commitId: HEAD,
      comments: [{ path: "src/a.ts", line: 2, side: "RIGHT" }],
    });
    expect(await host.postedFindings(7, markers.findings)).toEqual(
      new Map([
        [fp(1), NO_FEEDBACK],
        [fp(2), NO_FEEDBACK],
      ]),
    );
  });

  it("reads people's 👍 and 👎 on its comments from the reactions rollup", async () => {
    const person = `token ${github.addUser({ id: 808, login: "ada", name: null, emails: [] })}`;
    const comments = (await (
      await fetch(`${github.url}/repos/${REPO}/pulls/7/comments`, { headers: { authorization: person } })
    ).json()) as Array<{ id: number; body: string }>;
    const debuggerComment = comments.find((comment) => comment.body.includes(fp(2)));
    for (const content of ["-1", "+1", "heart"]) {
      const reacted = await fetch(
        `${github.url}/repos/${REPO}/pulls/comments/${debuggerComment?.id}/reactions`,
        {
          method: "POST",
          headers: { authorization: person, "content-type": "application/json" },
          body: JSON.stringify({ content }),
        },
      );
      expect(reacted.status).toBe(201);
    }
    expect(await host.postedFindings(7, markers.findings)).toEqual(
      new Map([
        [fp(2), { thumbsUp: 1, thumbsDown: 1 }],
        [fp(1), NO_FEEDBACK],
      ]),
    );
  });

  it("moves every line comment into the summary when GitHub refuses one outside the diff (422)", async () => {
    const before = github.pulls.reviews.length;
    const posted = await host.postReview(7, {
      commitSha: HEAD,
      summary: "Summary",
      comments: [
        { path: "src/a.ts", line: 2, body: `Inside ${markers.finding(fp(3))}`, fingerprint: fp(3) },
        { path: "src/a.ts", line: 40, body: `Outside ${markers.finding(fp(4))}`, fingerprint: fp(4) },
      ],
    });
    expect(posted).toMatchObject({ posted: 0, movedToSummary: 2, movedFingerprints: [fp(3), fp(4)] });
    const taken = github.pulls.reviews.slice(before);
    expect(taken).toHaveLength(1);
    expect(taken[0]?.comments).toEqual([]);
    expect(taken[0]?.event).toBe("COMMENT");
    expect(taken[0]?.body).toContain("`src/a.ts:40`");
    expect([...(await host.postedFindings(7, markers.findings)).keys()].sort()).toEqual(
      [fp(1), fp(2), fp(3), fp(4)].sort(),
    );
  });

  it("reads back only the markers signed for this pull request", async () => {
    const elsewhere = await testMarkersOf("project-web", 8);
    await host.postReview(7, {
      commitSha: HEAD,
      // An earlier version's unsigned marker, one signed for pull request 8, one with a wrong MAC.
      summary: [
        `<!-- argus:fp:${fp(5)} -->`,
        elsewhere.finding(fp(6)),
        markers.finding(fp(7)).replace(/:[0-9a-f]{32} -->/, `:${"0".repeat(32)} -->`),
      ].join("\n"),
      comments: [],
    });
    expect([...(await host.postedFindings(7, markers.findings)).keys()].sort()).toEqual(
      [fp(1), fp(2), fp(3), fp(4)].sort(),
    );
  });

  it("resolves the review threads its fixed findings opened, through GraphQL, and only those still open", async () => {
    await host.postReview(7, {
      commitSha: HEAD,
      summary: `Summary ${markers.finding(fp(8))}`,
      comments: [
        { path: "src/a.ts", line: 2, body: `Fixed ${markers.finding(fp(8))}`, fingerprint: fp(8) },
        { path: "src/a.ts", line: 3, body: `Still there ${markers.finding(fp(9))}`, fingerprint: fp(9) },
      ],
    });
    const threadOf = (body: string) =>
      github.pulls.reviews.flatMap((review) => review.comments).find((comment) => comment.body === body);

    expect(await host.resolveComments?.(7, new Set([fp(8)]), markers.findings)).toBe(1);
    expect(threadOf(`Fixed ${markers.finding(fp(8))}`)?.resolved).toBe(true);
    expect(threadOf(`Still there ${markers.finding(fp(9))}`)?.resolved).toBeUndefined();
    expect(github.calls.filter((call) => call === "POST /graphql")).toHaveLength(2);
    // A resolved thread is left alone: one more read, no second mutation.
    expect(await host.resolveComments?.(7, new Set([fp(8)]), markers.findings)).toBe(0);
    expect(github.calls.filter((call) => call === "POST /graphql")).toHaveLength(3);
  });

  it("shows the review as a check run on the head commit: in progress, then concluded with what it found", async () => {
    const details = "https://argus.example/reviews/run-1";
    const id = await host.startCheck?.(7, { name: "Argus review", headSha: HEAD, detailsUrl: details });
    expect(github.pulls.checkRuns).toEqual([
      expect.objectContaining({
        id: Number(id),
        repository: REPO,
        name: "Argus review",
        head_sha: HEAD,
        status: "in_progress",
        conclusion: null,
        details_url: details,
      }),
    ]);
    await host.finishCheck?.(7, id ?? "", {
      conclusion: "success",
      title: "2 new findings",
      summary: "The review's comments are on the pull request.",
      detailsUrl: details,
    });
    expect(github.pulls.checkRuns[0]).toMatchObject({
      status: "completed",
      conclusion: "success",
      output: { title: "2 new findings", summary: "The review's comments are on the pull request." },
    });
    expect(github.calls).toContain(`PATCH /repos/${REPO}/check-runs/${id}`);
  });

  it("fails to start a check on an App installed without the checks permission", async () => {
    github.pulls.refuseChecks = true;
    try {
      await expect(
        host.startCheck?.(7, { name: "Argus review", headSha: HEAD, detailsUrl: "https://argus.example/r" }),
      ).rejects.toMatchObject({ status: 403 });
    } finally {
      github.pulls.refuseChecks = false;
    }
  });

  it("answers a command with a plain comment", async () => {
    await host.comment(7, "Paused");
    expect(github.pulls.issueComments).toEqual([{ pullRequest: 7, body: "Paused" }]);
  });
});
