/**
 * Triage: whether a run reviews its pull request, decided check by check, each check logged with
 * its outcome and reason (`triage.<check>`: `pass` or `skip`), so the run page says why a pull
 * request was or was not reviewed. The first failing check ends triage. The rules are in
 * docs/review-engine.md ("Triage").
 */
import { sql } from "kysely";
import { PLAN_VALUES } from "../../../shared/constants.ts";
import type { SubscriptionRow } from "../../billing/subscription-view.ts";
import type { PullRequestInfo } from "../../code-hosts/review-host.ts";
import type { Db } from "../../db/database.ts";
import type { PullRequestState } from "../queue/pull-requests.ts";
import type { ReviewJob } from "../queue/runs.ts";
import type { DecisionLog } from "../queue/worker.ts";
import type { ReviewSettings } from "../review-settings.ts";
import { matchingBranchPattern } from "./glob.ts";

export type TriageResult = { review: true; from: "base" | "last-review" } | { review: false; reason: string };

export interface TriageInput {
  job: ReviewJob;
  pullRequest: PullRequestInfo;
  settings: ReviewSettings;
  state: PullRequestState;
  /** The organisation's subscription as of now; undefined when it has none. */
  subscription: SubscriptionRow | undefined;
  now: Date;
  /** Whether the pull request's author holds a seat of the organisation. */
  authorHasSeat: () => Promise<boolean>;
}

type Check = { pass: true; detail?: Record<string, unknown> } | { pass: false; reason: string };

const pass = (detail?: Record<string, unknown>): Check => ({ pass: true, ...(detail ? { detail } : {}) });
const skip = (reason: string): Check => ({ pass: false, reason });

/** Which setting lets this trigger review, and its value. */
function triggerAllowed(job: ReviewJob, settings: ReviewSettings): Check {
  const preferences = settings.account_preferences;
  if (job.trigger === "command") {
    return preferences.review_on_command
      ? pass({ setting: "review_on_command" })
      : skip("Reviews on command are turned off (review_on_command)");
  }
  if (job.trigger === "synchronize") {
    return preferences.review_new_commits
      ? pass({ setting: "review_new_commits" })
      : skip("Reviews of new commits are turned off (review_new_commits)");
  }
  return preferences.auto_review
    ? pass({ setting: "auto_review" })
    : skip("Automatic reviews are turned off (auto_review)");
}

/** A pull request into an ignored branch (its base) or from one (its head) is not reviewed. */
function branchAllowed(pullRequest: PullRequestInfo, scope: ReviewSettings["review_scope"]): Check {
  const patterns = scope.ignored_branches;
  for (const [side, branch] of [
    ["base", pullRequest.baseRef],
    ["head", pullRequest.headRef],
  ] as const) {
    const pattern = matchingBranchPattern(patterns, branch);
    if (pattern !== undefined) {
      return skip(`The ${side} branch ${branch} matches "${pattern}" (ignored_branches)`);
    }
  }
  return pass({ base: pullRequest.baseRef, head: pullRequest.headRef });
}

/**
 * Reviews need Pro: the trial or the paid plan, not expired. After the trial the organisation is
 * on Free, which reviews nothing.
 */
function planAllows(subscription: SubscriptionRow | undefined, now: Date): Check {
  if (!subscription) return skip("The organisation has no subscription");
  const plan = subscription.plan_code;
  if (plan === PLAN_VALUES.free) {
    return skip("The organisation is on the Free plan (the Pro trial ended): reviews need Pro");
  }
  const end = plan === PLAN_VALUES.proTrial ? subscription.trial_ends_at : subscription.current_period_end;
  if (subscription.status === "canceled" || (end !== null && end < now)) {
    return skip("The organisation's subscription has expired");
  }
  return pass({ plan });
}

/**
 * Seats are enforced on the paid plan only: during the trial everyone is reviewed, so a team sees
 * reviews before it decides who gets a seat. On the paid plan the author must hold one.
 */
async function seatAllows(input: TriageInput): Promise<Check> {
  if (input.subscription?.plan_code !== PLAN_VALUES.paid) return pass({ enforced: false });
  if (await input.authorHasSeat()) return pass({ enforced: true, author: input.pullRequest.author.login });
  return skip(`${input.pullRequest.author.login} has no seat: assign one on the Subscription page`);
}

export async function triage(input: TriageInput, log: DecisionLog): Promise<TriageResult> {
  const { job, pullRequest, settings, state } = input;
  const command = job.trigger === "command";
  const scope = settings.review_scope;
  // An explicit `review` is a person asking: it is not held back by a pause, a draft, a bot author or
  // an ignored branch.
  const checks: Array<[string, () => Check | Promise<Check>]> = [
    [
      "triage.state",
      () => (pullRequest.state === "open" ? pass() : skip(`The pull request is ${pullRequest.state}`)),
    ],
    ["triage.auto_review", () => triggerAllowed(job, settings)],
    [
      "triage.paused",
      () =>
        state.paused && !command
          ? skip("Reviews are paused on this pull request (resume to review)")
          : pass(),
    ],
    [
      "triage.draft",
      () =>
        pullRequest.draft && !command && !settings.account_preferences.review_draft_pull_requests
          ? skip("Draft pull requests are not reviewed (review_draft_pull_requests)")
          : pass({ draft: pullRequest.draft }),
    ],
    [
      "triage.bot_author",
      () =>
        pullRequest.author.isBot && !command && scope.skip_bot_authors
          ? skip(`${pullRequest.author.login} is a bot (skip_bot_authors)`)
          : pass({ author: pullRequest.author.login }),
    ],
    ["triage.ignored_branch", () => (command ? pass({ command: true }) : branchAllowed(pullRequest, scope))],
    ["triage.plan", () => planAllows(input.subscription, input.now)],
    ["triage.seat", () => seatAllows(input)],
    [
      "triage.head",
      () =>
        state.lastReviewedSha === pullRequest.headSha && !command
          ? skip(`${pullRequest.headSha.slice(0, 7)} was already reviewed`)
          : pass({ head_sha: pullRequest.headSha }),
    ],
  ];
  for (const [step, check] of checks) {
    const result = await check();
    if (!result.pass) {
      await log(step, "skip", { reason: result.reason });
      return { review: false, reason: result.reason };
    }
    await log(step, "pass", result.detail);
  }
  return job.command === "full review" || !state.lastReviewedSha
    ? { review: true, from: "base" }
    : { review: true, from: "last-review" };
}

/** Whether `login` holds a seat of the organisation on this code host (logins compare case-blind). */
export async function hasSeat(db: Db, orgId: string, platformType: string, login: string): Promise<boolean> {
  const row = await db
    .selectFrom("contributors")
    .select("id")
    .where("org_id", "=", orgId)
    .where("platform_type", "=", platformType)
    .where(sql`lower(platform_id)`, "=", login.toLowerCase())
    .where("seat_id", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}
