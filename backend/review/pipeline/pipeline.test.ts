import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLAN_VALUES } from "../../../shared/constants.ts";
import { TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import { fakeRepository, startFakeGitHub } from "../../../tests/support/fake-github.ts";
import { type MemoryReviewHost, memoryReviewHost } from "../../../tests/support/memory-review-host.ts";
import { hunk } from "../../../tests/support/review-files.ts";
import { testMarkers } from "../../../tests/support/review-markers.ts";
import {
  decisionSteps,
  findingRows,
  openPipelineDatabase,
  PIPELINE_NOW,
  PULL,
  pullRequestInfo,
  queueAndWork,
  rerunAfterCrashWhilePosting,
  runRow,
  setPlan as setOrgPlan,
} from "../../../tests/support/review-pipeline-runs.ts";
import { githubReviewHosts } from "../../code-hosts/github/review-adapter.ts";
import type { ReviewHost } from "../../code-hosts/review-host.ts";
import type { Db } from "../../db/database.ts";
import { effectiveSettings } from "../../settings/effective.ts";
import type { BotCommand, ReviewTrigger } from "../model.ts";
import { RUN_FINDINGS_KEPT_MAX } from "../queue/runs.ts";
import type { ReviewSettings } from "../review-settings.ts";
import { fingerprint } from "./findings.ts";
import { createReviewPipeline } from "./pipeline.ts";
import { SAME_RULE_PER_FILE_MAX } from "./posting.ts";

const BASE = "a".repeat(40);
const HEAD1 = "1".repeat(40);
const HEAD2 = "2".repeat(40);

const APP_PATCH = hunk(
  ["+export const add = (a: number, b: number) => a + b;", "+debugger;", "+// eslint-disable-next-line"],
  1,
  0,
);
const ENV_PATCH = hunk(["+API_URL=https://example.com"], 1, 0);
const SECOND_PATCH = hunk([" export const add = (a: number, b: number) => a + b;", "+debugger;"], 4, 3);

describe.each(TEST_DATABASE_KINDS)("the review pipeline on %s", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let orgId: string;
  let projectId: string;
  let host: MemoryReviewHost;
  let settings: ReviewSettings;

  beforeEach(async () => {
    ({ db, drop, orgId, projectId } = await openPipelineDatabase(kind));
    // The catalogue's defaults, with minor findings shown: these tests follow every finding.
    settings = await effectiveSettings(db, orgId, projectId);
    settings.comment_style.severity_threshold = "info";
    host = memoryReviewHost(pullRequestInfo("Add numbers", HEAD1, BASE));
    host.diffs.set(`${BASE}...${HEAD1}`, [
      { filename: "src/app.ts", status: "added", additions: 3, deletions: 0, patch: APP_PATCH },
      { filename: ".env", status: "added", additions: 1, deletions: 0, patch: ENV_PATCH },
    ]);
    host.diffs.set(`${HEAD1}...${HEAD2}`, [
      { filename: "src/app.ts", status: "modified", additions: 1, deletions: 0, patch: SECOND_PATCH },
    ]);
  });

  afterEach(async () => {
    await db.destroy();
    await drop();
  });

  const setPlan = (plan: string, options?: { trialEnds?: Date; periodEnd?: Date }) =>
    setOrgPlan(db, orgId, plan, options);

  const pipeline = (reviewHost: ReviewHost = host) =>
    createReviewPipeline({
      db,
      hostFor: async () => reviewHost,
      settings: async () => settings,
      clock: () => PIPELINE_NOW,
      productName: "Argus",
      publicOrigin: "https://argus.test",
      markers: testMarkers,
    });

  /** Queues a run as ingest would and works it, as the queue's worker would. */
  const run = async (trigger: ReviewTrigger, command?: BotCommand, attempt = 0, reviewHost?: ReviewHost) =>
    queueAndWork(
      db,
      pipeline(reviewHost),
      { orgId, projectId, trigger, command, headSha: (await (reviewHost ?? host).pullRequest(PULL)).headSha },
      attempt,
    );

  /** The fake GitHub with acme/web installed (installation 31) and its pull request #7 at HEAD1. */
  async function fakeGitHubWithPull() {
    const github = await startFakeGitHub();
    github.addInstallation({ id: 31, account: "acme", repositories: [fakeRepository("acme", "web", 100)] });
    github.pulls.addPullRequest("acme/web", {
      number: PULL,
      title: "Add numbers",
      author: { login: "octocat", type: "User" },
      head: { ref: "feature", sha: HEAD1 },
      base: { ref: "main", sha: BASE },
    });
    return github;
  }

  const runOf = (runId: string) => runRow(db, runId);
  const decisions = (runId: string) => decisionSteps(db, runId);
  const findings = (runId: string) => findingRows(db, runId);
  /** Each finding of the run: its rule, where it went and, when not posted, why. */
  const deliveries = async (runId: string) =>
    (await findings(runId)).map((row) => [row.finding.ruleId, row.delivery, row.not_posted_reason]);
  /** The detail the run logged with its first `step` (of that `outcome`, when named). */
  const stepDetail = async (runId: string, step: string, outcome?: string) =>
    (
      await db
        .selectFrom("review_decisions")
        .select("detail")
        .where("run_id", "=", runId)
        .where("step", "=", step)
        .$if(outcome !== undefined, (query) => query.where("outcome", "=", outcome ?? ""))
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).detail;

  it("reviews an opened pull request from its base and posts one review, recording every finding", async () => {
    const runId = await run("opened");
    expect(await runOf(runId)).toMatchObject({ status: "succeeded", findings_total: 3, findings_posted: 3 });
    // The log is read by its outcomes, not by the order of its steps: every check passed, the whole
    // change was read from the base, the built-in reviewer ran and one review was posted.
    const steps = await decisions(runId);
    expect(steps.filter((step) => step.startsWith("triage.") && !step.endsWith(": pass"))).toEqual([]);
    expect(steps).toEqual(
      expect.arrayContaining([
        "triage.seat: pass",
        "triage.head: pass",
        "triage.ignored_paths: pass",
        "diff: from base",
        "rules.team: none",
        "review: built-in",
        "ai.model: off",
      ]),
    );
    expect(steps.filter((step) => step.startsWith("post:"))).toEqual(["post: started", "post: posted"]);
    expect(steps.at(-1)).toBe("run: succeeded");
    expect(host.asked).toEqual([`${BASE}...${HEAD1}`]);
    expect(host.reviews).toHaveLength(1);
    const [review] = host.reviews;
    expect(review?.commitSha).toBe(HEAD1);
    expect(review?.requestChanges).toBe(false);
    expect(review?.comments.map((comment) => [comment.path, comment.line])).toEqual([
      ["src/app.ts", 2],
      ["src/app.ts", 3],
    ]);
    expect(review?.summary).toContain("hygiene/env-file");
    expect((await findings(runId)).map((row) => [row.finding.ruleId, row.delivery])).toEqual([
      ["hygiene/env-file", "summary"],
      ["markers/debugger", "inline"],
      ["markers/lint-disable", "inline"],
    ]);
    const state = await db.selectFrom("review_pull_requests").selectAll().executeTakeFirstOrThrow();
    expect(state).toMatchObject({ last_reviewed_sha: HEAD1, title: "Add numbers", paused: false });
  });

  it("reviews a push incrementally from the last reviewed head and never posts a finding twice", async () => {
    await run("opened");
    host.info.headSha = HEAD2;
    const second = await run("synchronize");
    expect(host.asked.at(-1)).toBe(`${HEAD1}...${HEAD2}`);
    // The same `debugger;` line moved: same fingerprint, already on the pull request.
    expect((await findings(second)).map((row) => [row.finding.ruleId, row.delivery])).toEqual([
      ["markers/debugger", "duplicate"],
    ]);
    expect(host.reviews).toHaveLength(2);
    expect(host.reviews[1]?.comments).toEqual([]);
    expect(host.reviews[1]?.summary).toContain("no new findings, 1 already reported");
    expect(await runOf(second)).toMatchObject({ status: "succeeded", findings_total: 1, findings_posted: 0 });

    // The same head again (a redelivered push): triage skips it.
    const again = await run("synchronize");
    expect(await runOf(again)).toMatchObject({ status: "skipped" });
    expect(await decisions(again)).toContain("triage.head: skip");
    expect(host.reviews).toHaveLength(2);

    // `full review` starts from the base again.
    await run("command", "full review");
    expect(host.asked.at(-1)).toBe(`${BASE}...${HEAD2}`);
  });

  describe("resolving the comments a push fixed", () => {
    const APP_AT_HEAD1 =
      "export const add = (a: number, b: number) => a + b;\ndebugger;\n// eslint-disable-next-line\n";
    /** HEAD2 takes `debugger;` out and moves the other flagged line down: only the first is fixed. */
    const APP_AT_HEAD2 =
      "export const add = (a: number, b: number) => a + b;\n\n// a note\n// eslint-disable-next-line\n";
    const FIX_PATCH = hunk(
      [
        " export const add = (a: number, b: number) => a + b;",
        "-debugger;",
        "+",
        "+// a note",
        " // eslint-disable-next-line",
      ],
      1,
    );
    const debuggerFinding = fingerprint("markers/debugger", "src/app.ts", "debugger;");

    beforeEach(() => {
      host.contents.set(`${HEAD1}:src/app.ts`, APP_AT_HEAD1);
      host.contents.set(`${HEAD2}:src/app.ts`, APP_AT_HEAD2);
      host.diffs.set(`${HEAD1}...${HEAD2}`, [
        { filename: "src/app.ts", status: "modified", additions: 2, deletions: 1, patch: FIX_PATCH },
      ]);
    });

    it("resolves the comment whose line the push took away, and leaves a moved line's and the other files' open", async () => {
      await run("opened");
      expect(host.reviews[0]?.comments.map((comment) => comment.fingerprint)).toContain(debuggerFinding);
      host.info.headSha = HEAD2;
      const pushed = await run("synchronize");
      expect(host.resolved).toEqual([debuggerFinding]);
      expect(await stepDetail(pushed, "resolve", "resolved")).toEqual({ fixed: 1, resolved: 1 });
      expect(await runOf(pushed)).toMatchObject({ status: "succeeded" });
    });

    it("resolves every comment on a file the push removed", async () => {
      await run("opened");
      host.diffs.set(`${HEAD1}...${HEAD2}`, [
        { filename: "src/app.ts", status: "removed", additions: 0, deletions: 3, patch: hunk(["-x"], 0, 1) },
      ]);
      host.info.headSha = HEAD2;
      await run("synchronize");
      const lintDisable = fingerprint("markers/lint-disable", "src/app.ts", "// eslint-disable-next-line");
      expect(new Set(host.resolved)).toEqual(new Set([debuggerFinding, lintDisable]));
    });

    it("resolves nothing in shadow mode, which posts nothing to the code host", async () => {
      await run("opened");
      host.info.headSha = HEAD2;
      settings.comment_style.shadow_mode = true;
      const shadowed = await run("synchronize");
      expect(host.resolved).toEqual([]);
      expect((await decisions(shadowed)).filter((step) => step.startsWith("resolve"))).toEqual([]);
    });

    it("still succeeds when the code host fails to resolve, and says so in the log", async () => {
      await run("opened");
      host.info.headSha = HEAD2;
      host.resolveError = new Error("GitHub answered 502 (resolve review thread)");
      const pushed = await run("synchronize");
      expect(await runOf(pushed)).toMatchObject({ status: "succeeded" });
      expect(await stepDetail(pushed, "resolve", "failed")).toEqual({
        fixed: 1,
        error: "GitHub answered 502 (resolve review thread)",
      });
    });
  });

  it("reviews the whole pull request again when someone asks with nothing pushed since the last review", async () => {
    await run("opened");
    const asked = await run("command", "review");
    // Not an empty range answered "0 files": the whole change, its findings known as posted.
    expect(host.asked).toEqual([`${BASE}...${HEAD1}`, `${BASE}...${HEAD1}`]);
    expect(await decisions(asked)).toEqual(expect.arrayContaining(["diff.range: base", "diff: from base"]));
    expect(await stepDetail(asked, "diff.range")).toEqual({ reason: "nothing pushed since the last review" });
    expect((await findings(asked)).map((row) => [row.finding.ruleId, row.delivery])).toEqual([
      ["hygiene/env-file", "duplicate"],
      ["markers/debugger", "duplicate"],
      ["markers/lint-disable", "duplicate"],
    ]);
    expect(host.reviews).toHaveLength(2);
    expect(host.reviews[1]?.comments).toEqual([]);
    expect(host.reviews[1]?.summary).toContain(
      "reviewed the pull request at 1111111 (2 files): no new findings, 3 already reported",
    );
    expect(await runOf(asked)).toMatchObject({ status: "succeeded", findings_total: 3, findings_posted: 0 });
  });

  it("keeps at most RUN_FINDINGS_KEPT_MAX findings of a run, every posted one among them, and counts them all", async () => {
    const dump = Array.from({ length: RUN_FINDINGS_KEPT_MAX + 40 }, (_, index) => `+debugger; // ${index}`);
    host.diffs.set(`${BASE}...${HEAD1}`, [
      {
        filename: "src/dump.ts",
        status: "added",
        additions: dump.length,
        deletions: 0,
        patch: hunk(dump, 1, 0),
      },
      { filename: ".env", status: "added", additions: 1, deletions: 0, patch: ENV_PATCH },
    ]);
    const runId = await run("opened");
    const kept = await findings(runId);
    expect(kept).toHaveLength(RUN_FINDINGS_KEPT_MAX);
    expect(await runOf(runId)).toMatchObject({
      status: "succeeded",
      findings_total: RUN_FINDINGS_KEPT_MAX + 41,
      // The .env file's finding, and the first of the dump's `debugger;` lines (one rule, one file).
      findings_posted: SAME_RULE_PER_FILE_MAX + 1,
    });
    expect(kept.filter((row) => row.delivery === "inline" || row.delivery === "summary")).toHaveLength(
      SAME_RULE_PER_FILE_MAX + 1,
    );
    // The .env file's finding is the most severe, so it is kept though it comes last in the diff.
    expect(kept.map((row) => row.finding.ruleId)).toContain("hygiene/env-file");
    expect(await stepDetail(runId, "post", "posted")).toMatchObject({ not_kept: 41 });
  });

  it("stores people's 👍 and 👎 and, after a 👎, never posts that fingerprint in the repository again", async () => {
    await run("opened");
    const debuggerFp = fingerprint("markers/debugger", "src/app.ts", "debugger;");
    const lintFp = fingerprint("markers/lint-disable", "src/app.ts", "// eslint-disable-next-line");
    host.reactions.set(debuggerFp, { thumbsUp: 0, thumbsDown: 1 });
    host.reactions.set(lintFp, { thumbsUp: 2, thumbsDown: 0 });

    const second = await run("command", "full review");
    expect(await decisions(second)).toEqual(
      expect.arrayContaining(["feedback: synced", "feedback.suppressed: suppressed"]),
    );
    const rows = await db
      .selectFrom("review_decisions")
      .select(["step", "detail"])
      .where("run_id", "=", second)
      .where("step", "like", "feedback%")
      .orderBy("id")
      .execute();
    expect(rows.map((row) => row.detail)).toEqual([
      { posted_findings: 3, thumbs_up: 2, thumbs_down: 1 },
      { count: 1, rules: ["markers/debugger"] },
    ]);
    expect((await findings(second)).map((row) => [row.finding.ruleId, row.delivery])).toEqual([
      ["hygiene/env-file", "duplicate"],
      ["markers/lint-disable", "duplicate"],
      ["markers/debugger", "suppressed"],
    ]);
    const feedback = () =>
      db
        .selectFrom("finding_feedback")
        .select(["fingerprint", "thumbs_up", "thumbs_down", "suppressed_at"])
        .where("project_id", "=", projectId)
        .where("fingerprint", "in", [debuggerFp, lintFp])
        .orderBy("thumbs_up")
        .execute();
    const [suppressed, useful] = await feedback();
    expect(suppressed).toMatchObject({ fingerprint: debuggerFp, thumbs_down: 1 });
    expect(suppressed?.suppressed_at).toBeInstanceOf(Date);
    expect(useful).toMatchObject({ fingerprint: lintFp, thumbs_up: 2, thumbs_down: 0, suppressed_at: null });

    // The 👎 is taken back: the counts follow, the suppression stays (decision 021).
    host.reactions.delete(debuggerFp);
    const third = await run("command", "full review");
    expect((await findings(third)).find((row) => row.finding.fingerprint === debuggerFp)?.delivery).toBe(
      "suppressed",
    );
    const [still] = await feedback();
    expect(still).toMatchObject({ thumbs_down: 0, suppressed_at: suppressed?.suppressed_at });
  });

  it("reviews from the base when a force-push dropped the last reviewed head (GitHub answers 404)", async () => {
    const github = await fakeGitHubWithPull();
    try {
      github.pulls.setDiff("acme/web", BASE, HEAD1, [
        { filename: "src/app.ts", status: "added", patch: APP_PATCH },
      ]);
      const githubHost = githubReviewHosts({
        appId: github.appId,
        privateKey: github.appPrivateKey,
        apiUrl: github.url,
      })("31", "acme/web");
      await run("opened", undefined, 0, githubHost);

      // Rewritten history: HEAD1 is no longer in the branch, so GitHub cannot compare from it.
      github.pulls.pushTo("acme/web", 7, HEAD2);
      github.pulls.setDiff("acme/web", BASE, HEAD2, [
        { filename: "src/app.ts", status: "added", patch: APP_PATCH },
      ]);
      const pushed = await run("synchronize", undefined, 0, githubHost);
      expect(await runOf(pushed)).toMatchObject({ status: "succeeded" });
      const steps = await decisions(pushed);
      expect(steps).toContain("diff.range: base");
      expect(steps).toContain("diff: from base");
      expect(await stepDetail(pushed, "diff.range")).toEqual({
        reason: "last reviewed commit no longer in the branch",
        last_reviewed: HEAD1,
      });
      expect(github.pulls.reviews.map((review) => review.commitId)).toEqual([HEAD1, HEAD2]);
    } finally {
      await github.close();
    }
  });

  it("records why triage skipped a run, check by check", async () => {
    const skipped = async (
      step: string,
      change: () => Promise<void> | void,
      trigger: ReviewTrigger = "opened",
    ) => {
      await change();
      const runId = await run(trigger);
      expect(await runOf(runId), step).toMatchObject({ status: "skipped" });
      expect(await decisions(runId), step).toContain(`${step}: skip`);
      return (await runOf(runId)).reason;
    };
    expect(
      await skipped("triage.auto_review", () => {
        settings.account_preferences.auto_review = false;
      }),
    ).toContain("auto_review");
    settings.account_preferences.auto_review = true;
    expect(
      await skipped(
        "triage.auto_review",
        () => {
          settings.account_preferences.review_new_commits = false;
        },
        "synchronize",
      ),
    ).toContain("review_new_commits");
    expect(
      await skipped("triage.draft", () => {
        host.info.draft = true;
      }),
    ).toContain("Draft");
    host.info.draft = false;
    expect(
      await skipped("triage.bot_author", () => {
        host.info.author = { login: "dependabot[bot]", isBot: true };
      }),
    ).toContain("dependabot[bot]");
    host.info.author = { login: "Octocat", isBot: false };
    expect(await skipped("triage.plan", () => setPlan(PLAN_VALUES.free))).toContain("Free plan");
    expect(
      await skipped("triage.plan", () =>
        setPlan(PLAN_VALUES.paid, { periodEnd: new Date("2026-11-01T00:00:00Z") }),
      ),
    ).toContain("expired");
    expect(await skipped("triage.seat", () => setPlan(PLAN_VALUES.paid))).toContain("Octocat has no seat");
    expect(
      await skipped("triage.state", () => {
        host.info.state = "merged";
      }),
    ).toContain("merged");
    expect(host.reviews).toEqual([]);

    // A seat (the login compared case-blind) lets the paid plan review.
    host.info.state = "open";
    await db
      .insertInto("contributors")
      .values({
        org_id: orgId,
        platform_type: "github",
        platform_id: "octocat",
        name: "Octo",
        seat_id: crypto.randomUUID(),
      })
      .execute();
    const reviewed = await run("opened");
    expect(await runOf(reviewed)).toMatchObject({ status: "succeeded" });
    expect(await decisions(reviewed)).toContain("triage.seat: pass");
  });

  it("skips a pull request into or out of an ignored branch, unless someone asks", async () => {
    settings.review_scope.ignored_branches = ["release/*", "dependabot/**"];
    const reviewed = await run("opened");
    expect(await runOf(reviewed)).toMatchObject({ status: "succeeded" });
    expect(await decisions(reviewed)).toContain("triage.ignored_branch: pass");

    host.info.headSha = HEAD2;
    host.info.baseRef = "release/2.0";
    const intoRelease = await run("synchronize");
    expect(await runOf(intoRelease)).toMatchObject({
      status: "skipped",
      reason: 'The base branch release/2.0 matches "release/*" (ignored_branches)',
    });
    expect(await decisions(intoRelease)).toContain("triage.ignored_branch: skip");

    host.info.baseRef = "main";
    host.info.headRef = "dependabot/npm/zod-4";
    const fromBot = await run("synchronize");
    expect((await runOf(fromBot)).reason).toBe(
      'The head branch dependabot/npm/zod-4 matches "dependabot/**" (ignored_branches)',
    );
    expect(host.reviews).toHaveLength(1);

    const asked = await run("command", "review");
    expect(await runOf(asked)).toMatchObject({ status: "succeeded" });
    expect(host.reviews).toHaveLength(2);
  });

  it("leaves ignored paths out of the review, and skips a pull request that changes nothing else", async () => {
    settings.review_scope.ignored_paths = ["docs/**", "*.env"];
    const partly = await run("opened");
    expect(await runOf(partly)).toMatchObject({ status: "succeeded" });
    expect((await stepDetail(partly, "review")).skipped).toEqual([
      { path: ".env", reason: "ignored by ignored_paths", pattern: "*.env" },
    ]);
    // The .env finding is gone with its file; the others stay.
    expect((await findings(partly)).map((row) => row.finding.ruleId)).toEqual([
      "markers/debugger",
      "markers/lint-disable",
    ]);

    settings.review_scope.ignored_paths = ["src/**", ".env"];
    host.info.headSha = HEAD2;
    const all = await run("synchronize");
    expect(await runOf(all)).toMatchObject({
      status: "skipped",
      reason: 'Every changed file is ignored (ignored_paths: "src/**")',
    });
    expect(await decisions(all)).toContain("triage.ignored_paths: skip");
    expect(host.reviews).toHaveLength(1);
    // Not looked at again for the same head.
    const state = await db.selectFrom("review_pull_requests").selectAll().executeTakeFirstOrThrow();
    expect(state.last_reviewed_sha).toBe(HEAD2);
  });

  it("answers help, pause and resume with a comment each; a paused pull request is reviewed on command only", async () => {
    const help = await run("command", "help");
    expect(await runOf(help)).toMatchObject({ status: "skipped" });
    expect(host.comments[0]).toContain("`@argus full review`");

    await run("command", "pause");
    expect(host.comments[1]).toContain("paused");
    const paused = await run("opened");
    expect(await decisions(paused)).toContain("triage.paused: skip");
    expect(host.reviews).toEqual([]);
    // Someone asking is not held back by the pause.
    const asked = await run("command", "review");
    expect(await runOf(asked)).toMatchObject({ status: "succeeded" });

    await run("command", "resume");
    host.info.headSha = HEAD2;
    const resumed = await run("synchronize");
    expect(await runOf(resumed)).toMatchObject({ status: "succeeded" });
    expect(host.comments).toHaveLength(3);
  });

  it("honours the comment style: minor findings off, inline comments off, request changes on", async () => {
    settings.comment_style.severity_threshold = "major";
    settings.comment_style.inline_comments = false;
    settings.comment_style.request_changes = true;
    const runId = await run("opened");
    expect(await deliveries(runId)).toEqual([
      ["hygiene/env-file", "summary", null],
      ["markers/debugger", "summary", null],
      ["markers/lint-disable", "not_posted", "below_threshold"],
    ]);
    expect(host.reviews[0]?.comments).toEqual([]);
    expect(host.reviews[0]?.requestChanges).toBe(true);
    expect(host.reviews[0]?.summary).not.toContain("markers/lint-disable");
    expect(host.reviews[0]?.summary).toContain("2 new findings, 1 below the lowest severity reported.");
  });

  it("posts at most max_findings findings, the most severe first", async () => {
    settings.comment_style.max_findings = 2;
    const runId = await run("opened");
    expect(await deliveries(runId)).toEqual([
      ["hygiene/env-file", "summary", null],
      ["markers/debugger", "inline", null],
      ["markers/lint-disable", "not_posted", "over_limit"],
    ]);
    expect(host.reviews[0]?.comments.map((comment) => comment.line)).toEqual([2]);
  });

  it("in shadow mode posts nothing to GitHub, records where each finding would have gone, and still answers commands", async () => {
    const github = await fakeGitHubWithPull();
    try {
      const patches = [
        { filename: "src/app.ts", status: "added" as const, patch: APP_PATCH },
        { filename: ".env", status: "added" as const, patch: ENV_PATCH },
      ];
      github.pulls.setDiff("acme/web", BASE, HEAD1, patches);
      const githubHost = githubReviewHosts({
        appId: github.appId,
        privateKey: github.appPrivateKey,
        apiUrl: github.url,
      })("31", "acme/web");
      const posts = () =>
        github.calls.filter((call) => !call.startsWith("GET ") && !call.includes("/access_tokens"));
      settings.comment_style.shadow_mode = true;

      const shadowRun = await run("opened", undefined, 0, githubHost);
      expect(posts()).toEqual([]);
      expect(github.pulls.reviews).toEqual([]);
      expect(await runOf(shadowRun)).toMatchObject({
        status: "succeeded",
        findings_total: 3,
        findings_posted: 0,
      });
      const recorded = await db
        .selectFrom("review_findings")
        .select(["delivery", "shadow_delivery", "finding"])
        .where("run_id", "=", shadowRun)
        .orderBy("id")
        .execute();
      expect(recorded.map((row) => [row.finding.ruleId, row.delivery, row.shadow_delivery])).toEqual([
        ["hygiene/env-file", "shadow", "summary"],
        ["markers/debugger", "shadow", "inline"],
        ["markers/lint-disable", "shadow", "inline"],
      ]);
      const post = await db
        .selectFrom("review_decisions")
        .select(["outcome", "detail"])
        .where("run_id", "=", shadowRun)
        .where("step", "=", "post")
        .execute();
      expect(post).toEqual([
        { outcome: "shadow", detail: { inline: 2, summary: 1, duplicates: 0, not_posted: 0, suppressed: 0 } },
      ]);
      const state = await db.selectFrom("review_pull_requests").selectAll().executeTakeFirstOrThrow();
      expect(state.last_reviewed_sha).toBe(HEAD1);

      // Someone asking the bot for help still gets an answer: it is not a review.
      await run("command", "help", 0, githubHost);
      expect(posts()).toEqual(["POST /repos/acme/web/issues/7/comments"]);

      // Shadow mode off: the next review starts at the base, so what the shadow run found is posted.
      settings.comment_style.shadow_mode = false;
      github.pulls.pushTo("acme/web", 7, HEAD2);
      github.pulls.setDiff("acme/web", BASE, HEAD2, patches);
      const live = await run("synchronize", undefined, 0, githubHost);
      expect(await decisions(live)).toEqual(expect.arrayContaining(["diff.range: base", "diff: from base"]));
      expect(github.pulls.reviews).toHaveLength(1);
      expect(github.pulls.reviews[0]?.comments.map((comment) => comment.line)).toEqual([2, 3]);
      expect(await runOf(live)).toMatchObject({ findings_total: 3, findings_posted: 3 });
    } finally {
      await github.close();
    }
  });

  it("records a comment the host moved into the summary as delivered there", async () => {
    host.refuse = new Set([fingerprint("markers/debugger", "src/app.ts", "debugger;")]);
    const runId = await run("opened");
    expect((await findings(runId)).map((row) => [row.finding.ruleId, row.delivery])).toEqual([
      ["hygiene/env-file", "summary"],
      ["markers/debugger", "summary"],
      ["markers/lint-disable", "inline"],
    ]);
    expect(host.reviews[0]?.summary).toContain("`src/app.ts:2`");
  });

  it("posts nothing twice when a run is started again after its worker died while posting", async () => {
    const runId = await rerunAfterCrashWhilePosting(db, pipeline, host, { orgId, projectId, headSha: HEAD1 });
    expect(host.reviews).toHaveLength(1);
    expect(await runOf(runId)).toMatchObject({ status: "succeeded", findings_total: 3, findings_posted: 0 });
    expect(await decisions(runId)).toContain("post: nothing to post");
    expect((await findings(runId)).every((row) => row.delivery === "duplicate")).toBe(true);
  });

  describe("the review's check on the head commit", () => {
    const runPage = (runId: string) => `https://argus.test/reviews/${runId}`;

    it("is in progress while the review runs, then says what it posted, linking to the run", async () => {
      const during: Array<(typeof host.checks)[number]["end"]> = [];
      host.afterPost = async () => {
        during.push(host.checks[0]?.end);
      };
      const runId = await run("opened");
      expect(during).toEqual([undefined]);
      expect(host.checks).toEqual([
        {
          id: "check-1",
          name: "Argus review",
          headSha: HEAD1,
          detailsUrl: runPage(runId),
          end: {
            conclusion: "success",
            title: "3 new findings",
            summary: expect.stringContaining("comments are on the pull request"),
            detailsUrl: runPage(runId),
          },
        },
      ]);
      const steps = await decisions(runId);
      expect(steps.indexOf("check: started")).toBeLessThan(steps.indexOf("post: started"));
      expect(steps.at(-2)).toBe("check: completed");

      host.info.headSha = HEAD2;
      await run("synchronize");
      // The push's `debugger;` has the fingerprint (rule, path, line text) of the one already
      // commented on: nothing new.
      expect(host.checks[1]).toMatchObject({
        headSha: HEAD2,
        end: { conclusion: "success", title: "No new findings" },
      });
    });

    it("is not shown when the setting is off, in shadow mode, or when triage skips the pull request", async () => {
      settings.comment_style.commit_status = false;
      await run("opened");
      settings.comment_style.commit_status = true;
      settings.comment_style.shadow_mode = true;
      host.info.headSha = HEAD2;
      await run("synchronize");
      settings.comment_style.shadow_mode = false;
      host.info.draft = true;
      await run("synchronize");
      expect(host.checks).toEqual([]);
      expect(host.reviews).toHaveLength(1);
    });

    it("concludes skipped, with the reason, when nothing in scope is left to review", async () => {
      settings.review_scope.skip_documentation_only = true;
      host.diffs.set(`${BASE}...${HEAD1}`, [
        {
          filename: "README.md",
          status: "modified",
          additions: 1,
          deletions: 0,
          patch: hunk(["+More words."], 1, 0),
        },
      ]);
      const runId = await run("opened");
      expect(host.checks[0]?.end).toEqual({
        conclusion: "skipped",
        title: "Not reviewed",
        summary: "Only documentation changed (skip_documentation_only)",
        detailsUrl: runPage(runId),
      });
    });

    it("concludes neutral when the review fails, and the run fails with the host's error", async () => {
      host.postReview = async () => {
        throw new Error("GitHub answered 502");
      };
      const runId = await run("opened");
      expect(await runOf(runId)).toMatchObject({ status: "failed", reason: "GitHub answered 502" });
      expect(host.checks[0]?.end).toMatchObject({
        conclusion: "neutral",
        title: "The review did not finish",
        summary: "GitHub answered 502. The run's page shows where it stopped.",
      });
    });

    it("costs the run nothing but the check when the host refuses it", async () => {
      host.checkError = new Error("Resource not accessible by integration");
      const runId = await run("opened");
      expect(await runOf(runId)).toMatchObject({ status: "succeeded", findings_posted: 3 });
      expect(await decisions(runId)).toContain("check: failed");
      expect(await stepDetail(runId, "check", "failed")).toEqual({
        error: "Resource not accessible by integration",
      });
    });

    it("is concluded, not started again, by a run started again after its worker died", async () => {
      const runId = await rerunAfterCrashWhilePosting(db, pipeline, host, {
        orgId,
        projectId,
        headSha: HEAD1,
      });
      expect(host.checks).toEqual([
        expect.objectContaining({ id: "check-1", end: expect.objectContaining({ conclusion: "success" }) }),
      ]);
      expect((await decisions(runId)).filter((step) => step.startsWith("check:"))).toEqual([
        "check: started",
        "check: completed",
      ]);
    });
  });
});
