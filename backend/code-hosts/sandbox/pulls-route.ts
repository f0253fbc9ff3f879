/**
 * Sandbox pull requests (docs/review-engine.md#sandbox-pull-requests): open one from a template or
 * an edited file, push a commit to it, comment on it, read it back with its diff and what was posted
 * on it. Opening, pushing and a comment's bot command go through ingest exactly as a GitHub webhook
 * would, so the review engine cannot tell the sandbox from GitHub. Only for the organisation's
 * sandbox repositories (404 otherwise).
 */

import { randomUUID } from "node:crypto";
import type { Router } from "express";
import * as v from "valibot";
import {
  SANDBOX_INTEGRATION,
  SANDBOX_PULL_ROUTES,
  type SandboxPullDetail,
  type SandboxPullsData,
  type sandboxCommentPostedSchema,
  sandboxCommentSchema,
  sandboxCommitSchema,
  sandboxPullCreateSchema,
  sandboxPullHref,
  type sandboxReactionsResponseSchema,
  sandboxReactSchema,
} from "../../../shared/contract/sandbox.ts";
import { uuidSchema } from "../../../shared/contract/schema.ts";
import { sessionOf } from "../../auth/require-session.ts";
import type { Db } from "../../db/database.ts";
import { HttpError } from "../../http/errors.ts";
import { strictRouter } from "../../http/router.ts";
import { parseRequest } from "../../http/validate.ts";
import { parseBotCommand } from "../../review/ingest/commands.ts";
import { type IngestOutcome, ingestDelivery } from "../../review/ingest/ingest.ts";
import type { BotCommand, ReviewTrigger } from "../../review/model.ts";
import { fromPullRequestFiles } from "../../review/pipeline/diff.ts";
import { storeFeedback } from "../../review/pipeline/feedback.ts";
import { type MarkersFor, withoutMarkers } from "../../review/pipeline/markers.ts";
import type { ReviewQueue } from "../../review/queue/queue.ts";
import { announceRunChange } from "../../review/queue/run-events.ts";
import { baseTree, TEMPLATES, templateOf } from "./samples.ts";
import {
  changedFiles,
  checksOn,
  commentOf,
  openPullRequest,
  postComment,
  postedOn,
  pullRequestOf,
  pullRequestsOf,
  pushCommit,
  react,
  reactionsOn,
  repositoryOf,
  type SandboxProject,
  sandboxProject,
  treeAt,
} from "./store.ts";

const notFound = () => new HttpError(404, { error: "Not found" });

/** A comment's number in a path: a positive whole number that fits the database's integer. */
const commentNumberSchema = v.pipe(
  v.string(),
  v.regex(/^\d{1,10}$/),
  v.transform(Number),
  v.integer(),
  v.minValue(1),
  v.maxValue(2_147_483_647),
);

const commentParam = (value: unknown) => {
  const parsed = v.safeParse(commentNumberSchema, value);
  if (!parsed.success) throw notFound();
  return parsed.output;
};

const pathParam = (value: unknown) => {
  const parsed = v.safeParse(uuidSchema, value);
  if (!parsed.success) throw notFound();
  return parsed.output;
};

const repositoryRef = (project: Pick<SandboxProject, "integration_key" | "external_id">) => ({
  integration: SANDBOX_INTEGRATION,
  key: project.integration_key,
  externalId: project.external_id ?? "",
});

const labelOf = (pull: { id: string; title: string }) => ({
  title: pull.title,
  url: sandboxPullHref(pull.id),
});

/** What a webhook delivery would tell ingest about this pull request. */
function queueReview(
  trx: Db,
  queue: ReviewQueue,
  project: Pick<SandboxProject, "integration_key" | "external_id">,
  pull: { id: string; number: number; title: string; head_sha: string; base_sha: string },
  trigger: ReviewTrigger,
) {
  return ingestDelivery(
    trx,
    queue,
    { id: `sandbox:${randomUUID()}`, event: "pull_request" },
    {
      kind: "review",
      repository: repositoryRef(project),
      pullRequest: pull.number,
      trigger,
      headSha: pull.head_sha,
      baseSha: pull.base_sha,
      label: labelOf(pull),
    },
  );
}

/**
 * What GitHub's `issue_comment` delivery would tell ingest about a comment: its bot command, the
 * same command path as code-hosts/github/events.ts (parseBotCommand, a `command` run). The sandbox's people
 * are the organisation's members, who own its repositories: each may command, as a collaborator
 * with write access may on GitHub. A comment without a command is recorded as ignored.
 */
function takeComment(
  trx: Db,
  queue: ReviewQueue,
  project: Pick<SandboxProject, "integration_key" | "external_id">,
  pull: { id: string; number: number; title: string },
  command: BotCommand | undefined,
) {
  return ingestDelivery(
    trx,
    queue,
    { id: `sandbox:${randomUUID()}`, event: "issue_comment" },
    command
      ? {
          kind: "review",
          repository: repositoryRef(project),
          pullRequest: pull.number,
          trigger: "command",
          command,
          label: labelOf(pull),
        }
      : { kind: "ignored", reason: "no command" },
  );
}

/** The run screens hear of the run once the transaction that queued it is committed. */
function announce(result: IngestOutcome) {
  if (result.outcome === "queued" || result.outcome === "coalesced") {
    announceRunChange({ orgId: result.orgId, runId: result.runId });
  }
}

const summaryOf = (row: {
  id: string;
  number: number;
  title: string;
  author: string;
  head_sha: string;
  created_at: Date;
  updated_at: Date;
}) => ({
  id: row.id,
  number: row.number,
  title: row.title,
  author: row.author,
  headSha: row.head_sha,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

function hunkHeader(hunk: { oldStart: number; oldLines: number; newStart: number; newLines: number }) {
  return `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
}

export function sandboxPullsRouter(
  db: Db,
  queue: ReviewQueue,
  markers: MarkersFor,
  productName: string,
): Router {
  const router = strictRouter();

  async function projectFor(orgId: string, projectId: unknown) {
    const project = await sandboxProject(db, orgId, pathParam(projectId));
    if (!project) throw notFound();
    return project;
  }

  router.get(SANDBOX_PULL_ROUTES.pulls, async (req, res) => {
    const { org } = sessionOf(res);
    const project = await projectFor(org.id, req.params.projectId);
    const pulls = await pullRequestsOf(db, project.id);
    const data: SandboxPullsData = {
      repository: { id: project.id, ...repositoryOf(project) },
      templates: TEMPLATES.map(({ id, title, description, path }) => ({ id, title, description, path })),
      files: Object.entries(baseTree(productName)).map(([path, content]) => ({ path, content })),
      pulls: pulls.map(summaryOf),
    };
    res.json({ success: true, data });
  });

  router.post(SANDBOX_PULL_ROUTES.pulls, async (req, res) => {
    const { org, user } = sessionOf(res);
    const project = await projectFor(org.id, req.params.projectId);
    const body = parseRequest(sandboxPullCreateSchema, req.body);
    const change = "template" in body ? templateOf(body.template) : body;
    const created = await db.transaction().execute(async (trx) => {
      const pull = await openPullRequest(
        trx,
        project,
        {
          title: change.title,
          author: user.name || user.email,
          change: { path: change.path, content: change.content },
        },
        productName,
      );
      return { ...pull, queued: await queueReview(trx, queue, project, pull, "opened") };
    });
    announce(created.queued);
    res.status(201).json({
      success: true,
      data: { id: created.id, number: created.number, headSha: created.head_sha },
    });
  });

  router.post(SANDBOX_PULL_ROUTES.pullCommits, async (req, res) => {
    const { org } = sessionOf(res);
    const pull = await pullRequestOf(db, org.id, pathParam(req.params.pullId));
    if (!pull) throw notFound();
    const project = await projectFor(org.id, pull.project_id);
    const change = parseRequest(sandboxCommitSchema, req.body);
    const { headSha, queued } = await db.transaction().execute(async (trx) => {
      const sha = await pushCommit(trx, pull, change);
      return {
        headSha: sha,
        queued: await queueReview(trx, queue, project, { ...pull, head_sha: sha }, "synchronize"),
      };
    });
    announce(queued);
    res.status(201).json({ success: true, data: { id: pull.id, number: pull.number, headSha } });
  });

  /** A person's comment; a bot command in it (`@argus review`) runs as on GitHub. */
  router.post(SANDBOX_PULL_ROUTES.pullComments, async (req, res) => {
    const { org, user } = sessionOf(res);
    const pull = await pullRequestOf(db, org.id, pathParam(req.params.pullId));
    if (!pull) throw notFound();
    const project = await projectFor(org.id, pull.project_id);
    const { body } = parseRequest(sandboxCommentSchema, req.body);
    const command = parseBotCommand(body, productName);
    const { id, queued } = await db.transaction().execute(async (trx) => ({
      id: await postComment(trx, pull, { author: user.name || user.email, body }),
      queued: await takeComment(trx, queue, project, pull, command),
    }));
    announce(queued);
    const runId = queued.outcome === "queued" || queued.outcome === "coalesced" ? queued.runId : null;
    res
      .status(201)
      .json({ success: true, data: { id, command: command ?? null, runId } } satisfies v.InferOutput<
        typeof sandboxCommentPostedSchema
      >);
  });

  router.get(SANDBOX_PULL_ROUTES.pull, async (req, res) => {
    const { org, user } = sessionOf(res);
    const pull = await pullRequestOf(db, org.id, pathParam(req.params.pullId));
    if (!pull) throw notFound();
    const project = await projectFor(org.id, pull.project_id);
    const [files, head, posted, checks, latestRun] = await Promise.all([
      changedFiles(db, project.id, pull.base_sha, pull.head_sha),
      treeAt(db, project.id, pull.head_sha),
      postedOn(db, pull.id),
      checksOn(db, pull.id, pull.head_sha),
      db
        .selectFrom("review_runs")
        .select(["id", "status"])
        .where("project_id", "=", project.id)
        .where("pull_request", "=", pull.number)
        .orderBy("queued_at", "desc")
        .limit(1)
        .executeTakeFirst(),
    ]);
    const reactions = await reactionsOn(
      db,
      posted.flatMap((review) => review.comments.map((comment) => comment.id)),
      user.id,
    );
    const repository = repositoryOf(project);
    const data: SandboxPullDetail = {
      ...summaryOf(pull),
      projectId: project.id,
      repository: repository.fullName,
      baseSha: pull.base_sha,
      baseRef: repository.defaultBranch,
      headRef: pull.head_ref,
      files: fromPullRequestFiles(files).map((file) => ({
        path: file.path,
        status: file.status,
        additions: file.additions,
        deletions: file.deletions,
        headContent: head?.[file.path] ?? null,
        hunks: file.hunks.map((hunk) => ({ header: hunkHeader(hunk), lines: hunk.lines })),
      })),
      // As GitHub renders them: the fingerprint markers are hidden.
      reviews: posted.map((review) => ({
        id: review.id,
        kind: review.kind,
        author: review.author,
        commitId: review.commit_id,
        body: withoutMarkers(review.body),
        createdAt: review.created_at.toISOString(),
        comments: review.comments.map((comment) => ({
          id: comment.id,
          path: comment.path,
          line: comment.line,
          side: comment.side,
          commitId: comment.commit_id,
          body: withoutMarkers(comment.body),
          reactions: reactions.get(comment.id) ?? { "+1": 0, "-1": 0, mine: [] },
          resolved: comment.resolved_at !== null,
        })),
      })),
      checks: checks.map((check) => ({
        id: check.id,
        name: check.name,
        conclusion: check.conclusion,
        title: check.title,
        summary: check.summary,
        detailsUrl: check.details_url,
      })),
      latestRun: latestRun ?? null,
    };
    res.json({ success: true, data });
  });

  /**
   * 👍 or 👎 on a review comment, as a person reacts on GitHub; the finding's feedback in the
   * repository is updated at once (a 👎 suppresses it from the next run on).
   */
  router.post(SANDBOX_PULL_ROUTES.commentReactions, async (req, res) => {
    const { org, user } = sessionOf(res);
    const commentId = commentParam(req.params.commentId);
    const comment = await commentOf(db, org.id, commentId);
    if (!comment) throw notFound();
    const body = parseRequest(sandboxReactSchema, req.body);
    const ref = { projectId: comment.project_id, pullRequest: comment.number };
    const { findings } = await markers(ref);
    const data = await db.transaction().execute(async (trx) => {
      await react(trx, { commentId, userId: user.id, ...body });
      const counts = (await reactionsOn(trx, [commentId], user.id)).get(commentId);
      if (!counts) throw notFound();
      const feedback = { thumbsUp: counts["+1"], thumbsDown: counts["-1"] };
      await storeFeedback(
        trx,
        ref,
        new Map(findings(comment.body).map((fingerprint) => [fingerprint, feedback])),
      );
      return counts;
    });
    res.json({ success: true, data } satisfies v.InferOutput<typeof sandboxReactionsResponseSchema>);
  });

  return router;
}
