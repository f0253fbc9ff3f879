/**
 * The sandbox's adapter of the ReviewHost port: reads its pull requests from the sandbox store and
 * keeps what is posted as GitHub holds it (a review with its body and its line comments on the
 * RIGHT side of one commit). Like GitHub, it only takes a comment on a line the diff shows; the
 * others go into the summary.
 */

import { sandboxPullHref } from "../../../shared/review-paths.ts";
import type { Db } from "../../db/database.ts";
import { fromPullRequestFiles, RightSideIndex } from "../diff.ts";
import { fingerprintsIn, withFingerprint } from "../fingerprint-marker.ts";
import type { LineComment, ReviewHost } from "../review-host.ts";
import { changedFiles, postedOn, repositoryOf, type SandboxProject, treeAt } from "./store.ts";

export class SandboxPullRequestNotFound extends Error {
  override name = "SandboxPullRequestNotFound";
}

const outsideDiff = (comments: readonly LineComment[]) =>
  comments.map(
    (comment) =>
      `- \`${comment.path}:${comment.line}\`: ${withFingerprint(comment.body, comment.fingerprint)}`,
  );

export function createSandboxReviewHost(
  db: Db,
  project: Pick<SandboxProject, "id" | "name" | "properties">,
  publicOrigin: string,
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
        url: new URL(sandboxPullHref(row.id), publicOrigin).toString(),
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
    async postedFingerprints(number) {
      const posted = await postedOn(db, (await pull(number)).id);
      const texts = posted.flatMap((review) => [
        review.body,
        ...review.comments.map((comment) => comment.body),
      ]);
      return new Set(texts.flatMap(fingerprintsIn));
    },
    async postReview(number, review) {
      const row = await pull(number);
      const index = new RightSideIndex(
        fromPullRequestFiles(await changedFiles(db, project.id, row.base_sha, review.commitSha)),
      );
      const inline = review.comments.filter((comment) => index.has(comment.path, comment.line));
      const moved = review.comments.filter((comment) => !index.has(comment.path, comment.line));
      const body = moved.length ? [review.summary, "", ...outsideDiff(moved)].join("\n") : review.summary;
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
              body: withFingerprint(comment.body, comment.fingerprint),
            })),
          )
          .execute();
      });
      return {
        posted: inline.length,
        movedToSummary: moved.length,
        url: new URL(sandboxPullHref(row.id), publicOrigin).toString(),
      };
    },
    async comment(number, body) {
      const row = await pull(number);
      await db
        .insertInto("sandbox_reviews")
        .values({ pull_request_id: row.id, kind: "comment", commit_id: null, body })
        .execute();
    },
  };
}
