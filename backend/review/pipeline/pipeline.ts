/**
 * The review pipeline (docs/review-engine.md, "Pipeline"): a started run reads its pull request
 * from the code host, acts on a bot command or triages, fetches the diff (incremental from the last
 * reviewed head by default), runs the built-in reviewer and the AI pass (when the organisation has
 * a model) and posts one review. Every stage writes its outcome to the run's decision log. A run
 * started again after a crash finds what it already did there and in review_findings, and never
 * posts twice (nor calls the model twice).
 */
import type { Selectable } from "kysely";
import type { Finding } from "../../../shared/review-contract.ts";
import type { Clock } from "../../billing/clock.ts";
import { currentSubscription } from "../../billing/subscriptions.ts";
import { CommitNotFoundError, type PullRequestInfo, type ReviewHost } from "../../code-hosts/review-host.ts";
import type { Db } from "../../db/database.ts";
import type { ProjectsTable } from "../../db/schema.ts";
import { BOT_COMMANDS, botHandle } from "../ingest/commands.ts";
import type { FindingDelivery, PostedDelivery, ReviewRunOutcome } from "../model.ts";
import { type PullRequestRef, pullRequestState, updatePullRequest } from "../queue/pull-requests.ts";
import { announceRunChange } from "../queue/run-events.ts";
import { type ReviewJob, recordDecision, recordRunCommits } from "../queue/runs.ts";
import type { DecisionLog, ReviewPipeline } from "../queue/worker.ts";
import type { ReviewSettings, ReviewSettingsReader } from "../review-settings.ts";
import { type AiPassResult, type ModelDeps, runAiPass } from "../reviewers/ai/ai-pass.ts";
import { mergeFindings } from "../reviewers/ai/merge.ts";
import { aiSummarySection } from "../reviewers/ai/summary.ts";
import { extensionOf, SCRIPT_EXTENSIONS } from "../reviewers/builtin/analyzer.ts";
import { reviewBuiltIn } from "../reviewers/builtin/index.ts";
import { builtInFamilies, builtInRules, familiesOff } from "../reviewers/builtin/rules/families.ts";
import { fileLanguage } from "../reviewers/builtin/rules/languages.ts";
import { readTeamRules, type TeamRules, teamRulesFolder } from "../reviewers/builtin/rules/team-rules.ts";
import { recordTeamRules } from "../reviewers/builtin/rules/team-rules-store.ts";
import { type DiffFile, fromPullRequestFiles, type PullRequestFile, RightSideIndex } from "./diff.ts";
import { syncFeedback, withoutSuppressed } from "./feedback.ts";
import { pathPatterns } from "./glob.ts";
import type { MarkersFor } from "./markers.ts";
import { asksForChanges, type PlannedReview, planReview, summaryBody } from "./posting.ts";
import { hasSeat, triage } from "./triage.ts";

export type ProjectRow = Selectable<ProjectsTable>;

/** Builds the code-host adapter of a project (hosts/index.ts). */
export type ReviewHostFor = (project: ProjectRow) => Promise<ReviewHost>;

export interface PipelineDeps {
  db: Db;
  hostFor: ReviewHostFor;
  settings: ReviewSettingsReader;
  clock: Clock;
  productName: string;
  /** Signs the markers of what is posted and checks those read back (markers.ts). */
  markers: MarkersFor;
  /** The AI pass (docs/review-engine.md, "AI pass"); absent, every review is built-in only. */
  models?: ModelDeps | undefined;
}

/** Whole files fetched at head for Biome, the rule engine and the dependency rule, at most this many per run. */
const CONTENT_FILES_MAX = 50;
/** Skipped files and analyzer notes listed in the decision log, at most this many of each. */
const LISTED_MAX = 50;

const TEST_FILE = /(^|\/)(__tests__|tests?|spec)\/|\.(test|spec)\.[^/]+$/;
const DOCUMENTATION_FILE = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt)$|(^|\/)docs?\//i;

/**
 * Files whose whole text the analyzers use: scripts (Biome), what the rule engine parses (its
 * enclosing functions are where taint comes from) and package.json (new dependencies).
 */
function wantsContent(file: DiffFile): boolean {
  return (
    file.status !== "removed" &&
    (SCRIPT_EXTENSIONS.has(extensionOf(file.path)) ||
      fileLanguage(file.path) !== undefined ||
      file.path.split("/").at(-1) === "package.json")
  );
}

function helpText(productName: string): string {
  const handle = `@${botHandle(productName)}`;
  const what: Record<(typeof BOT_COMMANDS)[number], string> = {
    review: "review the changes since the last review",
    "full review": "review the whole pull request again, from its base",
    pause: "stop reviewing new pushes to this pull request",
    resume: "review new pushes again",
    help: "show this list",
  };
  return [
    `**${productName}** commands (a comment line of its own):`,
    ...BOT_COMMANDS.map((command) => `- \`${handle} ${command}\`: ${what[command]}`),
  ].join("\n");
}

/** Whether the run's log already has this step and outcome (a run started again after a crash). */
async function logged(db: Db, runId: string, step: string, outcome: string): Promise<boolean> {
  const row = await db
    .selectFrom("review_decisions")
    .select("id")
    .where("run_id", "=", runId)
    .where("step", "=", step)
    .where("outcome", "=", outcome)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The files changed from `since` to the head, and where the range starts: at the base instead when
 * the host no longer knows `since` (a force-push dropped the last reviewed head from the branch).
 */
async function changedSince(
  host: ReviewHost,
  pullRequest: PullRequestInfo,
  since: string,
  log: DecisionLog,
): Promise<{ from: string; changed: PullRequestFile[] }> {
  const { number, baseSha, headSha } = pullRequest;
  try {
    return { from: since, changed: await host.changedFiles(number, since, headSha) };
  } catch (error) {
    if (!(error instanceof CommitNotFoundError) || since === baseSha) throw error;
    await log("diff.range", "base", {
      reason: "last reviewed commit no longer in the branch",
      last_reviewed: since,
    });
    return { from: baseSha, changed: await host.changedFiles(number, baseSha, headSha) };
  }
}

async function countsOf(db: Db, runId: string) {
  const rows = await db
    .selectFrom("review_findings")
    .select("delivery")
    .where("run_id", "=", runId)
    .execute();
  return {
    findingsTotal: rows.length,
    findingsPosted: rows.filter((row) => row.delivery === "inline" || row.delivery === "summary").length,
  };
}

/** Whether the pull request's latest review was made in shadow mode (and posted nothing). */
async function lastReviewInShadow(db: Db, ref: PullRequestRef): Promise<boolean> {
  const last = await db
    .selectFrom("review_decisions as decision")
    .innerJoin("review_runs as run", "run.id", "decision.run_id")
    .select("decision.outcome")
    .where("run.project_id", "=", ref.projectId)
    .where("run.pull_request", "=", ref.pullRequest)
    .where("decision.step", "=", "post")
    .where("decision.outcome", "in", ["posted", "shadow"])
    .orderBy("decision.id", "desc")
    .executeTakeFirst();
  return last?.outcome === "shadow";
}

export function createReviewPipeline(deps: PipelineDeps): ReviewPipeline {
  const { db, productName } = deps;

  /**
   * The repository's team rules, from the pull request's base commit (never its head: a change
   * must not switch off the rules that would catch it). Logged with the rules that did not load,
   * and kept for the settings page. A host that fails to answer costs the team rules only.
   */
  async function teamRules(
    job: ReviewJob,
    host: ReviewHost,
    baseSha: string,
    log: DecisionLog,
  ): Promise<TeamRules | null> {
    const folder = teamRulesFolder(productName);
    let team: TeamRules | null;
    try {
      team = await readTeamRules(host, baseSha, productName);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      await log("rules.team", "unreadable", { folder, base_sha: baseSha, error: message });
      return null;
    }
    if (!team) {
      await log("rules.team", "unavailable", { reason: "this code host cannot list the rules folder" });
      return null;
    }
    await log("rules.team", team.files.length ? "read" : "none", {
      folder,
      base_sha: baseSha,
      files: team.files,
      rules: team.rules.map((rule) => rule.ruleId),
      ...(team.invalid.length ? { invalid: team.invalid.slice(0, LISTED_MAX) } : {}),
    });
    await recordTeamRules(db, job.projectId, { folder, baseSha, readAt: deps.clock(), team });
    return team;
  }

  /** pause, resume and help: answered with a comment, once per run. */
  async function command(
    job: ReviewJob,
    host: ReviewHost,
    ref: PullRequestRef,
    log: DecisionLog,
  ): Promise<ReviewRunOutcome> {
    const handle = `@${botHandle(productName)}`;
    const answers = {
      pause: `Reviews of this pull request are paused. Comment \`${handle} resume\` to review new pushes again, or \`${handle} review\` for one review now.`,
      resume: "Reviews of this pull request are back on: new pushes are reviewed.",
      help: helpText(productName),
    } as const;
    const name = job.command as keyof typeof answers;
    if (name === "pause" || name === "resume") await updatePullRequest(db, ref, { paused: name === "pause" });
    if (!(await logged(db, job.runId, "triage.command", "answered"))) {
      await host.comment(job.pullRequest, answers[name]);
      await log("triage.command", "answered", { command: name });
    }
    return { status: "skipped", reason: `Answered ${name}: nothing to review` };
  }

  async function review(
    job: ReviewJob,
    host: ReviewHost,
    pullRequest: PullRequestInfo,
    settings: ReviewSettings,
    since: string,
    log: DecisionLog,
  ): Promise<ReviewRunOutcome> {
    const ref = { projectId: job.projectId, pullRequest: job.pullRequest };
    const head = pullRequest.headSha;
    if ((await logged(db, job.runId, "post", "posted")) || (await logged(db, job.runId, "post", "shadow"))) {
      // Posted and recorded before a crash: only the run's end is missing.
      await log("post", "already posted", {});
      return { status: "succeeded", ...(await countsOf(db, job.runId)) };
    }
    const markers = await deps.markers(ref);
    const onPullRequest = await host.postedFindings(job.pullRequest, markers.findings);
    await syncFeedback(db, ref, onPullRequest, log);

    // Nothing pushed since the last review (a `review` command or a retry): an empty range.
    const { from, changed } =
      since === head ? { from: since, changed: [] } : await changedSince(host, pullRequest, since, log);
    let files = fromPullRequestFiles(changed);
    const scope = settings.review_scope;
    const withoutTests = scope.review_test_files ? files : files.filter((file) => !TEST_FILE.test(file.path));
    const leftOut = files.length - withoutTests.length;
    files = withoutTests;
    // Ignored files stay in `files`, so the filter reports them as skipped; nothing else reads them.
    const ignoredBy = pathPatterns(scope.ignored_paths);
    const matched = files.map((file) => ignoredBy(file.path));
    const considered = files.filter((_, index) => matched[index] === undefined);
    const ignoredPatterns = [...new Set(matched.filter((pattern) => pattern !== undefined))];
    if (files.length > 0 && considered.length === 0) {
      const listed = ignoredPatterns.map((pattern) => `"${pattern}"`).join(", ");
      const reason = `Every changed file is ignored (ignored_paths: ${listed})`;
      await log("triage.ignored_paths", "skip", { reason, files: files.length, patterns: ignoredPatterns });
      await updatePullRequest(db, ref, { last_reviewed_sha: head });
      return { status: "skipped", reason };
    }
    await log("triage.ignored_paths", "pass", {
      ignored: files.length - considered.length,
      ...(ignoredPatterns.length ? { patterns: ignoredPatterns } : {}),
    });
    if (
      scope.skip_documentation_only &&
      considered.length > 0 &&
      considered.every((file) => DOCUMENTATION_FILE.test(file.path))
    ) {
      await log("triage.documentation_only", "skip", { files: considered.length });
      await updatePullRequest(db, ref, { last_reviewed_sha: head });
      return { status: "skipped", reason: "Only documentation changed (skip_documentation_only)" };
    }
    const wanted = considered.filter(wantsContent).slice(0, CONTENT_FILES_MAX);
    await Promise.all(
      wanted.map(async (file) => {
        const content = await host.fileContent(file.path, head);
        if (content !== null) file.content = content;
      }),
    );
    await log("diff", from === pullRequest.baseSha ? "from base" : "incremental", {
      from,
      to: head,
      files: files.length,
      additions: files.reduce((sum, file) => sum + file.additions, 0),
      deletions: files.reduce((sum, file) => sum + file.deletions, 0),
      contents_fetched: wanted.length,
      ...(leftOut ? { test_files_left_out: leftOut } : {}),
    });

    const team = await teamRules(job, host, pullRequest.baseSha, log);
    const off = familiesOff(settings.built_in_rules);
    const result = await reviewBuiltIn(files, {
      reviewGenerated: !scope.skip_generated_files,
      ignoredPaths: scope.ignored_paths,
      rules: [...builtInRules(off), ...(team?.rules ?? [])],
    });
    await log("review", "built-in", {
      findings: result.findings.length,
      skipped: result.skipped.slice(0, LISTED_MAX),
      failures: result.failures,
      notes: result.notes.slice(0, LISTED_MAX),
    });
    await log("rules", "ran", {
      families: [...builtInFamilies().keys()].filter((family) => !off.has(family)),
      families_off: [...off],
      team_rules: (team?.rules ?? []).map((rule) => rule.ruleId),
      rules: builtInRules(off).length + (team?.rules.length ?? 0),
      ...(result.rules.failures.length ? { failures: result.rules.failures.slice(0, LISTED_MAX) } : {}),
      ...(result.rules.fromHunks.length
        ? { parsed_from_hunks: result.rules.fromHunks.slice(0, LISTED_MAX) }
        : {}),
    });

    // The AI reads what the built-in reviewer read: skipped files (generated, lock, ignored) stay out.
    const skippedPaths = new Set(result.skipped.map((file) => file.path));
    let ai: AiPassResult | undefined;
    if (deps.models) {
      ai = await runAiPass(deps.models, {
        db,
        runId: job.runId,
        orgId: job.orgId,
        host,
        headSha: head,
        files: files.filter((file) => !skippedPaths.has(file.path)),
        builtin: result.findings,
        instructions: scope.review_instructions,
        productName,
        now: deps.clock(),
        log,
      });
    } else {
      await log("ai.model", "off", { reason: "no AI models in this deployment" });
    }
    const merged = mergeFindings(result.findings, ai?.findings ?? []);
    if (ai?.findings.length) {
      await log("ai.merge", "merged", {
        ai: ai.findings.length,
        same_line_as_builtin: merged.sameLineAsBuiltIn,
        findings: merged.findings.length,
      });
    }

    const style = settings.comment_style;
    const suppression = await withoutSuppressed(db, job.projectId, merged.findings, log);
    const plan = planReview(
      suppression.kept,
      new RightSideIndex(files),
      new Set(onPullRequest.keys()),
      style,
      markers,
    );
    plan.deliveries.push(...suppression.suppressed);
    if (style.shadow_mode) return recordShadow(job, ref, head, plan);
    const duplicates = plan.deliveries.filter(({ delivery }) => delivery === "duplicate").length;
    const summary = summaryBody(
      plan,
      {
        productName,
        since: from === pullRequest.baseSha ? null : from,
        headSha: head,
        filesReviewed: files.length - result.skipped.length,
        skipped: result.skipped.length,
        duplicates,
        maxFindings: style.max_findings,
        sections: ai ? [aiSummarySection(ai)] : [],
      },
      style.summary_comment,
      markers,
    );
    const fresh = plan.comments.length + plan.summaryFindings.length;
    // A run started again after a crash in the middle of posting: what reached the host carries its
    // markers and is a duplicate now; post again only what is new.
    const retriedPost = await logged(db, job.runId, "post", "started");
    let moved = new Set<string>();
    let posted = { inline: plan.comments.length, moved: 0 };
    if ((retriedPost && fresh === 0) || (!summary && plan.comments.length === 0)) {
      await log("post", "nothing to post", { retried: retriedPost, duplicates });
      posted = { inline: 0, moved: 0 };
    } else {
      await log("post", "started", { inline: plan.comments.length, summary: plan.summaryFindings.length });
      const answer = await host.postReview(job.pullRequest, {
        commitSha: head,
        summary,
        comments: plan.comments,
        requestChanges: asksForChanges(plan, style),
      });
      moved = new Set(answer.movedFingerprints ?? []);
      posted = { inline: answer.posted, moved: answer.movedToSummary };
    }

    const deliveries = plan.deliveries.map(({ finding, delivery }) => ({
      finding,
      delivery: delivery === "inline" && moved.has(finding.fingerprint) ? ("summary" as const) : delivery,
      shadowDelivery: null,
    }));
    const count = (kind: FindingDelivery) => deliveries.filter(({ delivery }) => delivery === kind).length;
    await recordPost(job.runId, ref, head, deliveries, "posted", {
      inline: count("inline"),
      summary: count("summary"),
      duplicates: count("duplicate"),
      not_posted: count("not_posted"),
      over_limit: plan.overLimit,
      suppressed: count("suppressed"),
      moved_to_summary: posted.moved,
    });
    return {
      status: "succeeded",
      findingsTotal: deliveries.length,
      findingsPosted: count("inline") + count("summary"),
    };
  }

  /**
   * Shadow mode: nothing goes to the code host. A finding that would have been posted is recorded
   * as "shadow" with where it would have gone; the pull request counts as reviewed up to its head.
   */
  async function recordShadow(
    job: ReviewJob,
    ref: PullRequestRef,
    head: string,
    plan: PlannedReview,
  ): Promise<ReviewRunOutcome> {
    const deliveries = plan.deliveries.map(({ finding, delivery }) =>
      delivery === "inline" || delivery === "summary"
        ? { finding, delivery: "shadow" as const, shadowDelivery: delivery }
        : { finding, delivery, shadowDelivery: null },
    );
    const count = (kind: FindingDelivery) =>
      plan.deliveries.filter(({ delivery }) => delivery === kind).length;
    await recordPost(job.runId, ref, head, deliveries, "shadow", {
      inline: count("inline"),
      summary: count("summary"),
      duplicates: count("duplicate"),
      not_posted: count("not_posted"),
      suppressed: count("suppressed"),
    });
    return { status: "succeeded", findingsTotal: deliveries.length, findingsPosted: 0 };
  }

  /** The run's findings, the pull request's last reviewed head and the `post` step, in one transaction. */
  async function recordPost(
    runId: string,
    ref: PullRequestRef,
    head: string,
    deliveries: Array<{ finding: Finding; delivery: FindingDelivery; shadowDelivery: PostedDelivery | null }>,
    outcome: "posted" | "shadow",
    detail: Record<string, number>,
  ): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (deliveries.length) {
        await trx
          .insertInto("review_findings")
          .values(
            deliveries.map(({ finding, delivery, shadowDelivery }) => ({
              run_id: runId,
              fingerprint: finding.fingerprint,
              delivery,
              shadow_delivery: shadowDelivery,
              finding: JSON.stringify(finding),
            })),
          )
          .onConflict((conflict) => conflict.columns(["run_id", "fingerprint"]).doNothing())
          .execute();
      }
      await updatePullRequest(trx, ref, { last_reviewed_sha: head });
      await recordDecision(trx, runId, "post", outcome, detail);
    });
  }

  return async (job, log) => {
    const project = await db
      .selectFrom("projects")
      .selectAll()
      .where("id", "=", job.projectId)
      .executeTakeFirst();
    if (!project?.active) {
      await log("triage.project", "skip", { reason: "The repository is no longer active" });
      return { status: "skipped", reason: "The repository is no longer active in this organisation" };
    }
    const host = await deps.hostFor(project);
    const ref = { projectId: job.projectId, pullRequest: job.pullRequest };
    const pullRequest = await host.pullRequest(job.pullRequest);
    await updatePullRequest(db, ref, { title: pullRequest.title, url: pullRequest.url });
    await recordRunCommits(db, job.runId, pullRequest);
    announceRunChange({ orgId: job.orgId, runId: job.runId });
    await log("pull_request", "read", {
      head_sha: pullRequest.headSha,
      base_sha: pullRequest.baseSha,
      draft: pullRequest.draft,
      author: pullRequest.author.login,
    });

    if (job.command === "pause" || job.command === "resume" || job.command === "help") {
      return command(job, host, ref, log);
    }
    const settings = await deps.settings(db, job.orgId, job.projectId);
    const state = await pullRequestState(db, ref);
    const now = deps.clock();
    const decision = await triage(
      {
        job,
        pullRequest,
        settings,
        state,
        subscription: await currentSubscription(db, job.orgId, now),
        now,
        authorHasSeat: () => hasSeat(db, job.orgId, project.integration_name, pullRequest.author.login),
      },
      log,
    );
    if (!decision.review) return { status: "skipped", reason: decision.reason };
    // The first review after shadow mode is turned off starts at the base: what the shadow reviews
    // found is not on the pull request yet, and an incremental diff would not find it again.
    const afterShadow =
      decision.from === "last-review" &&
      !settings.comment_style.shadow_mode &&
      (await lastReviewInShadow(db, ref));
    if (afterShadow) await log("diff.range", "base", { reason: "the last review was in shadow mode" });
    const from =
      decision.from === "last-review" && state.lastReviewedSha && !afterShadow
        ? state.lastReviewedSha
        : pullRequest.baseSha;
    return review(job, host, pullRequest, settings, from, log);
  };
}
