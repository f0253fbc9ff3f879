/**
 * The review pipeline (docs/review-engine.md, "Pipeline"): a started run reads its pull request
 * from the code host, acts on a bot command or triages, fetches the diff (incremental from the last
 * reviewed head by default), runs the built-in reviewer and the AI pass (when the organisation has
 * a model) and posts one review. Every stage writes its outcome to the run's decision log. A run
 * started again after a crash finds what it already did there and in review_findings, and never
 * posts twice (nor calls the model twice).
 */
import type { Selectable } from "kysely";
import type { Finding } from "../../../shared/contract/reviews.ts";
import type { Clock } from "../../billing/clock.ts";
import { currentSubscription } from "../../billing/subscriptions.ts";
import {
  CommitNotFoundError,
  type PostedFindings,
  type PullRequestInfo,
  type ReviewHost,
} from "../../code-hosts/review-host.ts";
import type { Db } from "../../db/database.ts";
import type { ProjectsTable } from "../../db/schema.ts";
import { BOT_COMMANDS, botHandle } from "../ingest/commands.ts";
import { type FindingDelivery, isPosted, type ReviewRunOutcome } from "../model.ts";
import {
  type PullRequestRef,
  type PullRequestState,
  pullRequestState,
  updatePullRequest,
} from "../queue/pull-requests.ts";
import { announceRunChange } from "../queue/run-events.ts";
import {
  findingsToKeep,
  isLogged,
  lastReviewInShadow,
  type RecordedFinding,
  type ReviewJob,
  recordPost,
  recordRunCommits,
  runFindingCounts,
  runProject,
} from "../queue/runs.ts";
import type { DecisionLog, ReviewPipeline } from "../queue/worker.ts";
import type { ReviewSettings, ReviewSettingsReader } from "../review-settings.ts";
import { type AiPassResult, type ModelDeps, runAiPass } from "../reviewers/ai/ai-pass.ts";
import { mergeFindings } from "../reviewers/ai/merge.ts";
import { aiSummarySection } from "../reviewers/ai/summary.ts";
import { extensionOf, SCRIPT_EXTENSIONS } from "../reviewers/builtin/analyzer.ts";
import { reviewBuiltIn } from "../reviewers/builtin/index.ts";
import { builtInFamilies, builtInRules, familiesOff } from "../reviewers/builtin/rules/families.ts";
import type { RelatedModules } from "../reviewers/builtin/rules/imports.ts";
import { fileLanguage } from "../reviewers/builtin/rules/languages.ts";
import { readTeamRules, type TeamRules, teamRulesFolder } from "../reviewers/builtin/rules/team-rules.ts";
import { recordTeamRules } from "../reviewers/builtin/rules/team-rules-store.ts";
import { reviewCheckName, startReviewCheck } from "./check.ts";
import { type DiffFile, fromPullRequestFiles, type PullRequestFile, RightSideIndex } from "./diff.ts";
import { syncFeedback, withoutSuppressed } from "./feedback.ts";
import { pathPatterns } from "./glob.ts";
import type { MarkersFor, PullRequestMarkers } from "./markers.ts";
import { asksForChanges, notPostedFor, type PlannedReview, planReview, summaryBody } from "./posting.ts";
import { fetchRelatedModules } from "./related-modules.ts";
import { fixedFingerprints, postedLineFindings } from "./resolve.ts";
import { hasSeat, triage } from "./triage.ts";

export type ProjectRow = Selectable<ProjectsTable>;

/** Builds the code-host adapter of a project (code-hosts/registry.ts). */
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
  /** Where this deployment's pages are: the review's check links to its run page there. */
  publicOrigin: string;
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
    review:
      "review the changes since the last review (the whole pull request again if nothing was pushed since)",
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

/** What every stage of one review reads: the run, its pull request and where to log. */
interface ReviewContext {
  job: ReviewJob;
  host: ReviewHost;
  pullRequest: PullRequestInfo;
  settings: ReviewSettings;
  ref: PullRequestRef;
  log: DecisionLog;
}

/** The changed files a review reads, from where its range starts. */
interface Scope {
  from: string;
  /** The changed files, test files left out unless the settings review them. */
  files: DiffFile[];
  /** `files` without those ignored_paths names. */
  considered: DiffFile[];
  testFilesLeftOut: number;
  /** The repository modules the changed files import and call, fetched with the contents. */
  related?: RelatedModules;
}

/** What the reviewers found. */
interface Reviewed {
  builtin: Awaited<ReturnType<typeof reviewBuiltIn>>;
  ai: AiPassResult | undefined;
  findings: Finding[];
}

/** Where each finding went, and what the code host took. */
interface Posting {
  outcome: "posted" | "shadow";
  findings: RecordedFinding[];
  detail: Record<string, number>;
}

const skipped = (reason: string): { skipped: ReviewRunOutcome } => ({
  skipped: { status: "skipped", reason },
});

export function createReviewPipeline(deps: PipelineDeps): ReviewPipeline {
  const { db, productName } = deps;

  /**
   * Scope: the files changed since `since`, then the review_scope settings (test files, ignored
   * paths, documentation only). A change made only of what the settings leave out is not reviewed;
   * its head counts as reviewed.
   */
  async function scope(ctx: ReviewContext, since: string): Promise<Scope | { skipped: ReviewRunOutcome }> {
    const { pullRequest, settings, ref, log } = ctx;
    const head = pullRequest.headSha;
    const { from, changed } = await changedSince(ctx.host, pullRequest, since, log);
    const all = fromPullRequestFiles(changed);
    const reviewScope = settings.review_scope;
    const files = reviewScope.review_test_files ? all : all.filter((file) => !TEST_FILE.test(file.path));
    // Ignored files stay in `files`, so the filter reports them as skipped; nothing else reads them.
    const ignoredBy = pathPatterns(reviewScope.ignored_paths);
    const matched = files.map((file) => ignoredBy(file.path));
    const considered = files.filter((_, index) => matched[index] === undefined);
    const ignoredPatterns = [...new Set(matched.filter((pattern) => pattern !== undefined))];
    if (files.length > 0 && considered.length === 0) {
      const listed = ignoredPatterns.map((pattern) => `"${pattern}"`).join(", ");
      const reason = `Every changed file is ignored (ignored_paths: ${listed})`;
      await log("triage.ignored_paths", "skip", { reason, files: files.length, patterns: ignoredPatterns });
      await updatePullRequest(db, ref, { last_reviewed_sha: head });
      return skipped(reason);
    }
    await log("triage.ignored_paths", "pass", {
      ignored: files.length - considered.length,
      ...(ignoredPatterns.length ? { patterns: ignoredPatterns } : {}),
    });
    if (
      reviewScope.skip_documentation_only &&
      considered.length > 0 &&
      considered.every((file) => DOCUMENTATION_FILE.test(file.path))
    ) {
      await log("triage.documentation_only", "skip", { files: considered.length });
      await updatePullRequest(db, ref, { last_reviewed_sha: head });
      return skipped("Only documentation changed (skip_documentation_only)");
    }
    return { from, files, considered, testFilesLeftOut: all.length - files.length };
  }

  /** Contents: the whole text at head of the files the analyzers read whole, at most CONTENT_FILES_MAX. */
  async function contents({ host, pullRequest, log }: ReviewContext, scoped: Scope): Promise<void> {
    const { from, files } = scoped;
    const head = pullRequest.headSha;
    const wanted = scoped.considered.filter(wantsContent).slice(0, CONTENT_FILES_MAX);
    await Promise.all(
      wanted.map(async (file) => {
        const content = await host.fileContent(file.path, head);
        if (content !== null) file.content = content;
      }),
    );
    const related = await fetchRelatedModules(host, head, scoped.considered);
    scoped.related = related.modules;
    await log("diff", from === pullRequest.baseSha ? "from base" : "incremental", {
      from,
      to: head,
      files: files.length,
      additions: files.reduce((sum, file) => sum + file.additions, 0),
      deletions: files.reduce((sum, file) => sum + file.deletions, 0),
      contents_fetched: wanted.length,
      ...(related.fetches || related.modules.size
        ? { imported_modules: related.modules.size, imported_module_fetches: related.fetches }
        : {}),
      ...(related.failed ? { imported_modules_failed: related.failed } : {}),
      ...(scoped.testFilesLeftOut ? { test_files_left_out: scoped.testFilesLeftOut } : {}),
    });
  }

  /**
   * The repository's team rules, from the pull request's base commit (never its head: a change
   * must not switch off the rules that would catch it). Logged with the rules that did not load,
   * and kept for the settings page. A host that fails to answer costs the team rules only.
   */
  async function teamRules({ job, host, pullRequest, log }: ReviewContext): Promise<TeamRules | null> {
    const baseSha = pullRequest.baseSha;
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

  /** Reviewers: the built-in reviewer with the rule engine, then the AI pass, their findings merged. */
  async function reviewers(
    ctx: ReviewContext,
    files: DiffFile[],
    related?: RelatedModules,
  ): Promise<Reviewed> {
    const { job, log, settings } = ctx;
    const reviewScope = settings.review_scope;
    const team = await teamRules(ctx);
    const off = familiesOff(settings.built_in_rules);
    const builtin = await reviewBuiltIn(files, {
      reviewGenerated: !reviewScope.skip_generated_files,
      ignoredPaths: reviewScope.ignored_paths,
      rules: [...builtInRules(off), ...(team?.rules ?? [])],
      ...(related ? { related } : {}),
    });
    await log("review", "built-in", {
      findings: builtin.findings.length,
      skipped: builtin.skipped.slice(0, LISTED_MAX),
      failures: builtin.failures,
      notes: builtin.notes.slice(0, LISTED_MAX),
    });
    await log("rules", "ran", {
      families: [...builtInFamilies().keys()].filter((family) => !off.has(family)),
      families_off: [...off],
      team_rules: (team?.rules ?? []).map((rule) => rule.ruleId),
      rules: builtInRules(off).length + (team?.rules.length ?? 0),
      ...(builtin.rules.failures.length ? { failures: builtin.rules.failures.slice(0, LISTED_MAX) } : {}),
      ...(builtin.rules.fromHunks.length
        ? { parsed_from_hunks: builtin.rules.fromHunks.slice(0, LISTED_MAX) }
        : {}),
    });

    // The AI reads what the built-in reviewer read: skipped files (generated, lock, ignored) stay out.
    const skippedPaths = new Set(builtin.skipped.map((file) => file.path));
    let ai: AiPassResult | undefined;
    if (deps.models) {
      ai = await runAiPass(deps.models, {
        db,
        runId: job.runId,
        orgId: job.orgId,
        host: ctx.host,
        headSha: ctx.pullRequest.headSha,
        files: files.filter((file) => !skippedPaths.has(file.path)),
        builtin: builtin.findings,
        instructions: reviewScope.review_instructions,
        productName,
        now: deps.clock(),
        log,
      });
    } else {
      await log("ai.model", "off", { reason: "no AI models in this deployment" });
    }
    const merged = mergeFindings(builtin.findings, ai?.findings ?? []);
    if (ai?.findings.length) {
      await log("ai.merge", "merged", {
        ai: ai.findings.length,
        same_line_as_builtin: merged.sameLineAsBuiltIn,
        findings: merged.findings.length,
      });
    }
    return { builtin, ai, findings: merged.findings };
  }

  /** Plan: what a 👎 suppressed in the repository is left out; the rest is placed (posting.ts). */
  async function plan(
    { job, settings, log }: ReviewContext,
    files: DiffFile[],
    findings: Finding[],
    onPullRequest: ReadonlySet<string>,
    markers: PullRequestMarkers,
  ): Promise<PlannedReview> {
    const suppression = await withoutSuppressed(db, job.projectId, findings, log);
    const planned = planReview(
      suppression.kept,
      new RightSideIndex(files),
      onPullRequest,
      settings.comment_style,
      markers,
    );
    planned.deliveries.push(...suppression.suppressed);
    return planned;
  }

  /**
   * Shadow mode: nothing goes to the code host. A finding that would have been posted is recorded
   * as "shadow" with where it would have gone; the pull request counts as reviewed up to its head.
   */
  function shadow(planned: PlannedReview): Posting {
    const count = (kind: FindingDelivery) =>
      planned.deliveries.filter(({ delivery }) => delivery === kind).length;
    return {
      outcome: "shadow",
      findings: planned.deliveries.map(({ finding, delivery, notPostedReason }) =>
        isPosted(delivery)
          ? { finding, delivery: "shadow" as const, shadowDelivery: delivery }
          : { finding, delivery, shadowDelivery: null, notPostedReason },
      ),
      detail: {
        inline: count("inline"),
        summary: count("summary"),
        duplicates: count("duplicate"),
        not_posted: count("not_posted"),
        suppressed: count("suppressed"),
      },
    };
  }

  /** Post: one review with its summary and line comments; a retried run posts only what is new. */
  async function post(
    ctx: ReviewContext,
    scoped: Scope,
    reviewed: Reviewed,
    planned: PlannedReview,
    markers: PullRequestMarkers,
  ): Promise<Posting> {
    const { job, host, pullRequest, log } = ctx;
    const style = ctx.settings.comment_style;
    const { from, files } = scoped;
    const duplicates = planned.deliveries.filter(({ delivery }) => delivery === "duplicate").length;
    const summary = summaryBody(
      planned,
      {
        productName,
        since: from === pullRequest.baseSha ? null : from,
        headSha: pullRequest.headSha,
        filesReviewed: files.length - reviewed.builtin.skipped.length,
        skipped: reviewed.builtin.skipped.length,
        duplicates,
        maxFindings: style.max_findings,
        sections: reviewed.ai ? [aiSummarySection(reviewed.ai)] : [],
      },
      style.summary_comment,
      markers,
    );
    const fresh = planned.comments.length + planned.summaryFindings.length;
    // A run started again after a crash in the middle of posting: what reached the host carries its
    // markers and is a duplicate now; post again only what is new.
    const retriedPost = await isLogged(db, job.runId, "post", "started");
    let moved = new Set<string>();
    let movedToSummary = 0;
    if ((retriedPost && fresh === 0) || (!summary && planned.comments.length === 0)) {
      await log("post", "nothing to post", { retried: retriedPost, duplicates });
    } else {
      await log("post", "started", {
        inline: planned.comments.length,
        summary: planned.summaryFindings.length,
      });
      const answer = await host.postReview(job.pullRequest, {
        commitSha: pullRequest.headSha,
        summary,
        comments: planned.comments,
        requestChanges: asksForChanges(planned, style),
      });
      moved = new Set(answer.movedFingerprints ?? []);
      movedToSummary = answer.movedToSummary;
    }

    const findings = planned.deliveries.map(({ finding, delivery, notPostedReason }) => ({
      finding,
      delivery: delivery === "inline" && moved.has(finding.fingerprint) ? ("summary" as const) : delivery,
      shadowDelivery: null,
      notPostedReason,
    }));
    const count = (kind: FindingDelivery) => findings.filter(({ delivery }) => delivery === kind).length;
    return {
      outcome: "posted",
      findings,
      detail: {
        inline: count("inline"),
        summary: count("summary"),
        duplicates: count("duplicate"),
        not_posted: count("not_posted"),
        over_limit: notPostedFor(planned, "over_limit"),
        suppressed: count("suppressed"),
        moved_to_summary: movedToSummary,
      },
    };
  }

  /** Record: the run's findings, the reviewed head and the `post` step at once; the run's outcome. */
  async function record(
    { job, ref, pullRequest }: ReviewContext,
    posting: Posting,
  ): Promise<ReviewRunOutcome> {
    const { findings, outcome, detail } = posting;
    const kept = findingsToKeep(findings);
    const notKept = findings.length - kept.length;
    await recordPost(
      db,
      job.runId,
      { ref, head: pullRequest.headSha, findings: kept },
      outcome,
      notKept ? { ...detail, not_kept: notKept } : detail,
    );
    const posted = findings.filter(({ delivery }) => isPosted(delivery)).length;
    return { status: "succeeded", findingsTotal: findings.length, findingsPosted: posted };
  }

  /**
   * Resolve: the engine's own line comments whose finding this push took away (resolve.ts), so a
   * fixed finding's thread closes as a reviewer's would. Best effort: a host that fails here costs
   * the run nothing but the resolving, which the next push tries again.
   */
  async function resolveFixed(
    { job, host, ref, pullRequest, log }: ReviewContext,
    scoped: Scope,
    onPullRequest: PostedFindings,
    markers: PullRequestMarkers,
  ): Promise<void> {
    if (!host.resolveComments || onPullRequest.size === 0) return;
    const changed = new Map(scoped.files.map((file) => [file.path, file]));
    // A file removed, or renamed away, is gone at head with every line of it.
    const gone = new Set(scoped.files.flatMap((file) => (file.status === "removed" ? [file.path] : [])));
    for (const file of scoped.files) if (file.previousPath) gone.add(file.previousPath);
    /** The file's text at head, null when it is gone, undefined when the host has none to give. */
    const atHead = async (path: string) => {
      if (gone.has(path)) return null;
      const file = changed.get(path);
      return file?.content ?? (await host.fileContent(path, pullRequest.headSha)) ?? undefined;
    };
    let fixed = new Set<string>();
    try {
      const posted = (await postedLineFindings(db, ref, [...onPullRequest.keys()])).filter(
        (finding) => changed.has(finding.path) || gone.has(finding.path),
      );
      const texts = new Map<string, string | null>();
      for (const path of new Set(posted.map((finding) => finding.path))) {
        const text = await atHead(path);
        if (text !== undefined) texts.set(path, text);
      }
      fixed = fixedFingerprints(posted, texts);
      if (fixed.size === 0) return;
      const resolved = await host.resolveComments(job.pullRequest, fixed, markers.findings);
      await log("resolve", "resolved", { fixed: fixed.size, resolved });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      await log("resolve", "failed", { fixed: fixed.size, error: message });
    }
  }

  /** scope → contents → reviewers → plan → post or shadow (then resolve) → record (docs/review-engine.md, "Pipeline"). */
  async function review(ctx: ReviewContext, since: string): Promise<ReviewRunOutcome> {
    const { job, host, ref, log } = ctx;
    if (
      (await isLogged(db, job.runId, "post", "posted")) ||
      (await isLogged(db, job.runId, "post", "shadow"))
    ) {
      // Posted and recorded before a crash: only the run's end is missing.
      await log("post", "already posted", {});
      return { status: "succeeded", ...(await runFindingCounts(db, job.runId)) };
    }
    const markers = await deps.markers(ref);
    const onPullRequest = await host.postedFindings(job.pullRequest, markers.findings);
    await syncFeedback(db, ref, onPullRequest, log);

    const scoped = await scope(ctx, since);
    if ("skipped" in scoped) return scoped.skipped;
    await contents(ctx, scoped);
    const reviewed = await reviewers(ctx, scoped.files, scoped.related);
    const planned = await plan(ctx, scoped.files, reviewed.findings, new Set(onPullRequest.keys()), markers);
    if (ctx.settings.comment_style.shadow_mode) return record(ctx, shadow(planned));
    const posting = await post(ctx, scoped, reviewed, planned, markers);
    await resolveFixed(ctx, scoped, onPullRequest, markers);
    return record(ctx, posting);
  }

  /**
   * Why a review that would start at the last reviewed head starts at the base instead, logged:
   * - Nothing was pushed since (a `review` command or "Review again"): the person asking wants the
   *   pull request looked at again, perhaps with new settings or a model; an empty range would
   *   answer "0 files" and hide what is still wrong. Findings already posted are not posted twice.
   * - Shadow mode was turned off since: what the shadow reviews found is not on the pull request
   *   yet, and an incremental diff would not find it again.
   */
  async function reviewFromBaseInstead(
    { pullRequest, settings, ref, log }: ReviewContext,
    state: PullRequestState,
  ): Promise<boolean> {
    if (state.lastReviewedSha === pullRequest.headSha) {
      await log("diff.range", "base", { reason: "nothing pushed since the last review" });
      return true;
    }
    if (!settings.comment_style.shadow_mode && (await lastReviewInShadow(db, ref))) {
      await log("diff.range", "base", { reason: "the last review was in shadow mode" });
      return true;
    }
    return false;
  }

  /** pause, resume and help: answered with a comment, once per run. */
  async function command({
    job,
    host,
    ref,
    log,
  }: Omit<ReviewContext, "pullRequest" | "settings">): Promise<ReviewRunOutcome> {
    const handle = `@${botHandle(productName)}`;
    const answers = {
      pause: `Reviews of this pull request are paused. Comment \`${handle} resume\` to review new pushes again, or \`${handle} review\` for one review now.`,
      resume: "Reviews of this pull request are back on: new pushes are reviewed.",
      help: helpText(productName),
    } as const;
    const name = job.command as keyof typeof answers;
    if (name === "pause" || name === "resume") await updatePullRequest(db, ref, { paused: name === "pause" });
    if (!(await isLogged(db, job.runId, "triage.command", "answered"))) {
      await host.comment(job.pullRequest, answers[name]);
      await log("triage.command", "answered", { command: name });
    }
    return { status: "skipped", reason: `Answered ${name}: nothing to review` };
  }

  return async (job, log) => {
    const project = await runProject(db, job.projectId);
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
      return command({ job, host, ref, log });
    }
    const settings = await deps.settings(db, job.orgId, job.projectId);
    const ctx: ReviewContext = { job, host, pullRequest, settings, ref, log };
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
    const fromBase = decision.from === "base" || (await reviewFromBaseInstead(ctx, state));
    const since = fromBase || !state.lastReviewedSha ? pullRequest.baseSha : state.lastReviewedSha;
    const style = settings.comment_style;
    // Shadow mode shows nothing on the pull request, a check neither.
    if (!style.commit_status || style.shadow_mode) return review(ctx, since);
    const check = await startReviewCheck({
      db,
      host,
      job,
      headSha: pullRequest.headSha,
      name: reviewCheckName(productName),
      publicOrigin: deps.publicOrigin,
      log,
    });
    let outcome: ReviewRunOutcome;
    try {
      outcome = await review(ctx, since);
    } catch (error) {
      await check.finish({
        status: "failed",
        reason: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    await check.finish(outcome);
    return outcome;
  };
}
