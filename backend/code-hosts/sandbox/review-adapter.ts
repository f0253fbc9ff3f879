/**
 * The sandbox's adapter of the ReviewHost port: reads its pull requests from the sandbox store and
 * keeps what is posted as GitHub holds it (a review with its body and its line comments on the
 * RIGHT side of one commit). Like GitHub, it only takes a comment on a line the diff shows; the
 * others go into the summary. The review's check is kept as GitHub keeps a check run.
 */

import type { FindingFeedback } from "../../../shared/contract/reviews.ts";
import { sandboxPullHref } from "../../../shared/contract/sandbox.ts";
import type { Db } from "../../db/database.ts";
import { fromPullRequestFiles, RightSideIndex } from "../../review/pipeline/diff.ts";
import { addReactions, NO_FEEDBACK } from "../../review/pipeline/feedback.ts";
import { summaryWithMoved } from "../../review/pipeline/posting.ts";
import type { ReviewHost } from "../review-host.ts";
import { changedFiles, postedOn, reactionsOn, repositoryOf, type SandboxProject, treeAt } from "./store.ts";

export class SandboxPullRequestNotFound extends Error {
  override name = "SandboxPullRequestNotFound";
}

export function createSandboxReviewHost(
  db: Db,
  project: Pick<SandboxProject, "id" | "name" | "properties">,
): ReviewHost {
  async function pull(number: number) {
    const row = await db
      .selectFrom("sandbox_pull_requests")
      .selectAll()
      .where("project_id", "=", project.id)
      .where("number", "=", number)
      .executeTakeFirst();
    if (!row) throw new SandboxPullRequestNotFound(`No sandbox pull request #${number}`);
    return row;
  }

  return {
    async pullRequest(number) {
      const row = await pull(number);
      return {
        number: row.number,
        title: row.title,
        // This app's own page: the sandbox has no other place to show a pull request.
        url: sandboxPullHref(row.id),
        author: { login: row.author, isBot: false },
        draft: false,
        state: "open",
        headSha: row.head_sha,
        baseSha: row.base_sha,
        headRef: row.head_ref,
        baseRef: repositoryOf(project).defaultBranch,
      };
    },
    changedFiles: (_number, fromSha, toSha) => changedFiles(db, project.id, fromSha, toSha),
    async fileContent(path, sha) {
      return (await treeAt(db, project.id, sha))?.[path] ?? null;
    },
    async listFiles(directory, sha) {
      const prefix = `${directory.replace(/\/+$/, "")}/`;
      return Object.keys((await treeAt(db, project.id, sha)) ?? {}).filter(
        (path) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/"),
      );
    },
    async postedFindings(number, readMarkers) {
      const posted = await postedOn(db, (await pull(number)).id);
      const comments = posted.flatMap((review) => review.comments);
      const reactions = await reactionsOn(
        db,
        comments.map((comment) => comment.id),
        null,
      );
      const found = new Map<string, FindingFeedback>();
      for (const review of posted) {
        for (const fp of readMarkers(review.body)) addReactions(found, fp, NO_FEEDBACK);
      }
      for (const comment of comments) {
        const counts = reactions.get(comment.id);
        const feedback = { thumbsUp: counts?.["+1"] ?? 0, thumbsDown: counts?.["-1"] ?? 0 };
        for (const fp of readMarkers(comment.body)) addReactions(found, fp, feedback);
      }
      return found;
    },
    async postReview(number, review) {
      const row = await pull(number);
      const index = new RightSideIndex(
        fromPullRequestFiles(await changedFiles(db, project.id, row.base_sha, review.commitSha)),
      );
      const inline = review.comments.filter((comment) => index.has(comment.path, comment.line));
      const moved = review.comments.filter((comment) => !index.has(comment.path, comment.line));
      const body = summaryWithMoved(review.summary, moved);
      await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto("sandbox_reviews")
          .values({ pull_request_id: row.id, kind: "review", commit_id: review.commitSha, body })
          .returning("id")
          .executeTakeFirstOrThrow();
        if (inline.length === 0) return;
        await trx
          .insertInto("sandbox_review_comments")
          .values(
            inline.map((comment) => ({
              review_id: id,
              path: comment.path,
              line: comment.line,
              commit_id: review.commitSha,
              body: comment.body,
            })),
          )
          .execute();
      });
      return {
        posted: inline.length,
        movedToSummary: moved.length,
        ...(moved.length ? { movedFingerprints: moved.map((comment) => comment.fingerprint) } : {}),
        url: sandboxPullHref(row.id),
      };
    },
    async resolveComments(number, fingerprints, readMarkers) {
      const posted = await postedOn(db, (await pull(number)).id);
      const ids = posted
        .flatMap((review) => review.comments)
        .filter((comment) => comment.resolved_at === null)
        .filter((comment) => readMarkers(comment.body).some((fp) => fingerprints.has(fp)))
        .map((comment) => comment.id);
      if (ids.length === 0) return 0;
      await db
        .updateTable("sandbox_review_comments")
        .set({ resolved_at: new Date() })
        .where("id", "in", ids)
        .execute();
      return ids.length;
    },
    async comment(number, body) {
      const row = await pull(number);
      await db
        .insertInto("sandbox_reviews")
        .values({ pull_request_id: row.id, kind: "comment", commit_id: null, body })
        .execute();
    },
    async startCheck(number, check) {
      const row = await pull(number);
      const { id } = await db
        .insertInto("sandbox_checks")
        .values({
          pull_request_id: row.id,
          name: check.name,
          head_sha: check.headSha,
          title: "Reviewing",
          summary: "The review of this commit is under way.",
          details_url: check.detailsUrl,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return String(id);
    },
    async finishCheck(number, id, end) {
      const row = await pull(number);
      await db
        .updateTable("sandbox_checks")
        .set({
          conclusion: end.conclusion,
          title: end.title,
          summary: end.summary,
          details_url: end.detailsUrl,
          completed_at: new Date(),
        })
        .where("id", "=", Number(id))
        .where("pull_request_id", "=", row.id)
        .execute();
    },
  };
}
