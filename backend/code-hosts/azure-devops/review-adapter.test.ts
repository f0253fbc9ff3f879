import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../shared/node/logging.ts";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../../../tests/support/fake-azure-devops.ts";
import { testMarkersOf } from "../../../tests/support/review-markers.ts";
import { type Db, openDatabase } from "../../db/database.ts";
import { migrateToLatest } from "../../db/migrations.ts";
import { fromPullRequestFiles, RightSideIndex } from "../../review/pipeline/diff.ts";
import { NO_FEEDBACK } from "../../review/pipeline/feedback.ts";
import type { PullRequestMarkers } from "../../review/pipeline/markers.ts";
import type { ProjectRow } from "../../review/pipeline/pipeline.ts";
import { createSecretBox } from "../../secrets/secret-box.ts";
import { CommitNotFoundError, type ReviewHost } from "../review-host.ts";
import { sealPersonalAccessToken } from "./connection.ts";
import { azureDevOpsReviewHost, reactionsOf } from "./review-adapter.ts";

const BASE = "a".repeat(40);
const COMMON = "c".repeat(40);
const HEAD = "d".repeat(40);
const fp = (n: number) => String(n).repeat(64);

let azure: FakeAzureDevOps;
let db: Db;
const secrets = createSecretBox({ key: randomBytes(32), previousKeys: [], keyFile: undefined });
const logger = createLogger({ name: "test", level: "silent" });
let host: ReviewHost;
let markers: PullRequestMarkers;

beforeAll(async () => {
  azure = await startFakeAzureDevOps();
  db = await openDatabase({ kind: "pglite", dataDir: undefined });
  await migrateToLatest(db);
  const org = await db
    .insertInto("organizations")
    .values({ name: "Fabrikam" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("integrations")
    .values({
      org_id: org.id,
      name: "azure-devops",
      integration_key: "azure-devops",
      properties: JSON.stringify({ organization_url: azure.organizationUrl, project: azure.project }),
      secrets: JSON.stringify({
        personal_access_token: await sealPersonalAccessToken(secrets, org.id, azure.personalAccessToken),
      }),
    })
    .execute();
  const project = await db
    .insertInto("projects")
    .values({
      org_id: org.id,
      name: "fabrikam-web",
      integration_key: "azure-devops",
      integration_name: "azure-devops",
      integration_type: "git",
      external_link: "https://dev.azure.com/fabrikam/_git/fabrikam-web",
      external_id: azure.repositoryId("fabrikam-web"),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  azure.pullRequests.add("fabrikam-web", {
    pullRequestId: 4,
    title: "Totals",
    author: "ada@fabrikam.com",
    isDraft: true,
    source: { ref: "totals", commitId: HEAD },
    target: { ref: "main", commitId: BASE },
  });
  azure.pullRequests.setDiff(BASE, HEAD, COMMON, [
    {
      path: "/src/total.ts",
      changeType: "edit",
      blocks: [
        {
          changeType: "edit",
          originalLineNumberStart: 2,
          originalLinesCount: 1,
          modifiedLineNumberStart: 2,
          modifiedLinesCount: 2,
        },
      ],
    },
    { path: "/src/new.ts", changeType: "add" },
    { path: "/old.ts", changeType: "delete" },
  ]);
  azure.pullRequests.setFile(COMMON, "/src/total.ts", "const a = 1;\nconst b = 2;\nexport {};\n");
  azure.pullRequests.setFile(HEAD, "/src/total.ts", "const a = 1;\nconst b = 3;\ndebugger;\nexport {};\n");
  azure.pullRequests.setFile(HEAD, "/src/new.ts", "export const x = 1;\n");
  host = await azureDevOpsReviewHost({ db, secrets, logger }, project as ProjectRow);
  markers = await testMarkersOf(project.id, 4);
});

afterAll(async () => {
  await db?.destroy();
  await azure?.close();
});

describe("the Azure DevOps review host", () => {
  it("reads the pull request with the organisation's token", async () => {
    expect(await host.pullRequest(4)).toEqual({
      number: 4,
      title: "Totals",
      url: `${azure.organizationUrl}/${encodeURIComponent(azure.project)}/_git/fabrikam-web/pullrequest/4`,
      author: { login: "ada@fabrikam.com", isBot: false },
      draft: true,
      state: "open",
      headSha: HEAD,
      baseSha: BASE,
      headRef: "totals",
      baseRef: "main",
    });
  });

  it("writes each changed file's patch from the merge base's line blocks and the two texts", async () => {
    const files = await host.changedFiles(4, BASE, HEAD);
    expect(files).toEqual([
      {
        filename: "src/total.ts",
        status: "modified",
        additions: 2,
        deletions: 1,
        patch: "@@ -2,1 +2,2 @@\n-const b = 2;\n+const b = 3;\n+debugger;",
      },
      {
        filename: "src/new.ts",
        status: "added",
        additions: 1,
        deletions: 0,
        patch: "@@ -0,0 +1,1 @@\n+export const x = 1;",
      },
      { filename: "old.ts", status: "removed", additions: 0, deletions: 0 },
    ]);
    const index = new RightSideIndex(fromPullRequestFiles(files));
    expect(index.text("src/total.ts", 3)).toBe("debugger;");
    expect(await host.fileContent("src/total.ts", HEAD)).toContain("debugger;");
    expect(await host.fileContent("src/missing.ts", HEAD)).toBeNull();
  });

  it("lists the files directly in a folder at a commit (team rules at the base), none when it is missing", async () => {
    azure.pullRequests.setFile(BASE, "/.argus/rules/no-eval.yml", "id: no-eval\n");
    azure.pullRequests.setFile(BASE, "/.argus/rules/old/legacy.yml", "id: legacy\n");
    expect(await host.listFiles?.(".argus/rules", BASE)).toEqual([".argus/rules/no-eval.yml"]);
    expect(await host.listFiles?.(".argus/rules", HEAD)).toEqual([]);
  });

  it("says which commit it lost when Azure DevOps cannot diff from it (a force-push)", async () => {
    await expect(host.changedFiles(4, "e".repeat(40), HEAD)).rejects.toBeInstanceOf(CommitNotFoundError);
  });

  it("posts a summary thread and one thread per line comment, and reads their markers back", async () => {
    const posted = await host.postReview(4, {
      commitSha: HEAD,
      summary: `Summary ${markers.finding(fp(1))}`,
      comments: [
        { path: "src/total.ts", line: 3, body: `Debugger ${markers.finding(fp(2))}`, fingerprint: fp(2) },
      ],
    });
    expect(posted).toEqual({ posted: 1, movedToSummary: 0 });
    expect(azure.pullRequests.threads).toEqual([
      { pullRequestId: 4, content: `Summary ${markers.finding(fp(1))}` },
      {
        pullRequestId: 4,
        content: `Debugger ${markers.finding(fp(2))}`,
        threadContext: {
          filePath: "/src/total.ts",
          rightFileStart: { line: 3, offset: 1 },
          rightFileEnd: { line: 3, offset: 1 },
        },
      },
    ]);
    expect(await host.postedFindings(4, markers.findings)).toEqual(
      new Map([
        [fp(1), NO_FEEDBACK],
        [fp(2), NO_FEEDBACK],
      ]),
    );
    await host.comment(4, "Paused");
    expect(azure.pullRequests.threads.at(-1)).toEqual({ pullRequestId: 4, content: "Paused" });
  });

  it("maps likes to 👍 and a thread set to Won't fix to 👎 (Azure DevOps has no dislike)", async () => {
    const debuggerThread = azure.pullRequests.threads.find((thread) => thread.content.includes(fp(2)));
    if (!debuggerThread) throw new Error("the line comment's thread was not posted");
    debuggerThread.likedBy = ["ada@fabrikam.com", "bob@fabrikam.com"];
    debuggerThread.status = "wontFix";
    expect(await host.postedFindings(4, markers.findings)).toEqual(
      new Map([
        [fp(1), NO_FEEDBACK],
        [fp(2), { thumbsUp: 2, thumbsDown: 1 }],
      ]),
    );
    // Another status is no 👎; the status's number (3) is Won't fix too.
    expect(reactionsOf({ status: "fixed" }, { usersLiked: [] })).toEqual(NO_FEEDBACK);
    expect(reactionsOf({ status: 3 }, {})).toEqual({ thumbsUp: 0, thumbsDown: 1 });
  });

  it("resolves the open line threads of fixed findings (status Fixed), never a summary thread or one people closed", async () => {
    const leak = `Leak ${markers.finding(fp(5))}`;
    const other = `Other ${markers.finding(fp(6))}`;
    const summary = `Summary ${markers.finding(fp(5))}`;
    await host.postReview(4, {
      commitSha: HEAD,
      summary,
      comments: [
        { path: "src/total.ts", line: 4, body: leak, fingerprint: fp(5) },
        { path: "src/total.ts", line: 5, body: other, fingerprint: fp(6) },
      ],
    });
    const statusOf = (content: string) =>
      azure.pullRequests.threads.find((thread) => thread.content === content)?.status;
    const debuggerThread = azure.pullRequests.threads.find((thread) => thread.content.includes(fp(2)));

    // fp(2)'s thread is one people set to Won't fix (above): theirs to keep.
    expect(await host.resolveComments?.(4, new Set([fp(2), fp(5)]), markers.findings)).toBe(1);
    expect(statusOf(leak)).toBe("fixed");
    expect(statusOf(other)).toBeUndefined();
    expect(statusOf(summary)).toBeUndefined();
    expect(debuggerThread?.status).toBe("wontFix");
    // Nothing is left open to resolve the second time.
    expect(await host.resolveComments?.(4, new Set([fp(5)]), markers.findings)).toBe(0);
  });

  it("shows the review as a pull request status: pending, then succeeded or not applicable with what happened", async () => {
    const detailsUrl = "https://argus.example/reviews/run-4";
    const id = await host.startCheck?.(4, { name: "Argus review", headSha: HEAD, detailsUrl });
    await host.finishCheck?.(4, id ?? "", {
      conclusion: "success",
      title: "2 new findings",
      summary: "The review's comments are on the pull request.",
      detailsUrl,
    });
    await host.finishCheck?.(4, id ?? "", {
      conclusion: "neutral",
      title: "The review did not finish",
      summary: "Azure DevOps answered 503",
      detailsUrl,
    });
    const context = { name: "review", genre: "Argus review" };
    expect(azure.pullRequests.statuses).toEqual([
      { pullRequestId: 4, state: "pending", description: "Reviewing", context, targetUrl: detailsUrl },
      { pullRequestId: 4, state: "succeeded", description: "2 new findings", context, targetUrl: detailsUrl },
      {
        pullRequestId: 4,
        state: "notApplicable",
        description: "The review did not finish: Azure DevOps answered 503",
        context,
        targetUrl: detailsUrl,
      },
    ]);
  });

  it("reads back only the markers signed for this pull request, whoever wrote the thread", async () => {
    const before = await host.postedFindings(4, markers.findings);
    const elsewhere = await testMarkersOf("another-project", 4);
    // Threads people wrote: an earlier version's unsigned marker, and a marker copied from another
    // repository's pull request, set to Won't fix (a 👎 if it counted).
    azure.pullRequests.threads.push(
      { pullRequestId: 4, content: `Same as before <!-- argus:fp:${fp(3)} -->`, status: "wontFix" },
      { pullRequestId: 4, content: `Copied ${elsewhere.finding(fp(4))}`, status: "wontFix" },
    );
    expect(await host.postedFindings(4, markers.findings)).toEqual(before);
  });
});
