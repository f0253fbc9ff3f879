/**
 * The review's check on the pull request's head commit (docs/review-engine.md, "The review's
 * check"): started once triage lets a review through, concluded with the run's outcome, linking to
 * the run's page. Best effort, as resolving fixed comments is: a host that refuses (a GitHub App
 * installed before it asked for checks, a token without the status scope) costs the run nothing but
 * the check, and the decision log says why. A run started again after a crash concludes the check
 * its first attempt started rather than leaving it in progress.
 */
import type { CheckEnd, ReviewHost } from "../../code-hosts/review-host.ts";
import type { Db } from "../../db/database.ts";
import type { ReviewRunOutcome } from "../model.ts";
import { loggedDetail, type ReviewJob } from "../queue/runs.ts";
import type { DecisionLog } from "../queue/worker.ts";

const CHECK_STEP = "check";

export interface ReviewCheck {
  finish(outcome: ReviewRunOutcome): Promise<void>;
}

const NO_CHECK: ReviewCheck = { finish: async () => {} };

/** The review's check as the code host names it: GitHub's "Re-run" of it is known by this name. */
export const reviewCheckName = (productName: string) => `${productName} review`;

/** The run's page on this deployment, which the check links to. */
export const runPageUrl = (publicOrigin: string, runId: string) =>
  new URL(`/reviews/${encodeURIComponent(runId)}`, publicOrigin).href;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** What the check says once the run ended. */
export function checkEnd(outcome: ReviewRunOutcome, detailsUrl: string): CheckEnd {
  if (outcome.status === "succeeded") {
    const posted = outcome.findingsPosted;
    return {
      conclusion: "success",
      title: posted === 0 ? "No new findings" : `${posted} new ${posted === 1 ? "finding" : "findings"}`,
      summary:
        posted === 0
          ? "The review found nothing new to comment on."
          : "The review's comments are on the pull request; the run's page lists every finding and where it went.",
      detailsUrl,
    };
  }
  if (outcome.status === "skipped") {
    return { conclusion: "skipped", title: "Not reviewed", summary: outcome.reason, detailsUrl };
  }
  return {
    conclusion: "neutral",
    title: "The review did not finish",
    summary: `${outcome.reason.replace(/\.$/, "")}. The run's page shows where it stopped.`,
    detailsUrl,
  };
}

export async function startReviewCheck(args: {
  db: Db;
  host: ReviewHost;
  job: ReviewJob;
  headSha: string;
  name: string;
  publicOrigin: string;
  log: DecisionLog;
}): Promise<ReviewCheck> {
  const { db, host, job, log } = args;
  const { startCheck, finishCheck } = host;
  if (!startCheck || !finishCheck) return NO_CHECK;
  const detailsUrl = runPageUrl(args.publicOrigin, job.runId);
  let id: string;
  try {
    const started = await loggedDetail(db, job.runId, CHECK_STEP, "started");
    if (typeof started?.id === "string") {
      id = started.id;
    } else {
      id = await startCheck.call(host, job.pullRequest, {
        name: args.name,
        headSha: args.headSha,
        detailsUrl,
      });
      await log(CHECK_STEP, "started", { id, name: args.name });
    }
  } catch (error) {
    await log(CHECK_STEP, "failed", { error: errorText(error) });
    return NO_CHECK;
  }
  return {
    async finish(outcome) {
      const end = checkEnd(outcome, detailsUrl);
      try {
        await finishCheck.call(host, job.pullRequest, id, end);
        await log(CHECK_STEP, "completed", { id, conclusion: end.conclusion, title: end.title });
      } catch (error) {
        await log(CHECK_STEP, "failed", { id, error: errorText(error) });
      }
    },
  };
}
