/**
 * The sandbox's pull requests in the database (migration 0009_sandbox_pull_requests): commits as
 * whole trees, pull requests between two commits, and what was posted on them. The sandbox's
 * ReviewHost and its router both read and write through here.
 */
import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { SandboxReaction, SandboxReactions } from "../../../shared/contract/sandbox.ts";
import type { Db } from "../../db/database.ts";
import type { PullRequestFile } from "../../review/pipeline/diff.ts";
import { CommitNotFoundError } from "../review-host.ts";
import { filePatch } from "./line-diff.ts";
import { baseTree } from "./samples.ts";

export type Tree = Readonly<Record<string, string>>;

/** A sandbox repository of the organisation; undefined for another organisation's or a real one. */
export function sandboxProject(db: Db, orgId: string, projectId: string) {
  return db
    .selectFrom("projects")
    .select(["id", "org_id", "name", "integration_key", "external_id", "properties"])
    .where("id", "=", projectId)
    .where("org_id", "=", orgId)
    .where("integration_name", "=", "github")
    .where(sql<boolean>`properties->>'sandbox' = 'true'`)
    .executeTakeFirst();
}
export type SandboxProject = NonNullable<Awaited<ReturnType<typeof sandboxProject>>>;

export const repositoryOf = (project: Pick<SandboxProject, "name" | "properties">) => ({
  fullName: project.properties.full_name ?? project.name,
  defaultBranch: project.properties.default_branch ?? "main",
});

/** Stores a commit with a git-like sha (a hash of its parent, its tree and a nonce, as a timestamp makes git's unique). */
async function commit(db: Db, projectId: string, parentSha: string | null, tree: Tree): Promise<string> {
  const sha = createHash("sha1")
    .update(JSON.stringify({ parentSha, tree, nonce: randomUUID() }))
    .digest("hex");
  await db
    .insertInto("sandbox_commits")
    .values({ project_id: projectId, sha, parent_sha: parentSha, tree: JSON.stringify(tree) })
    .execute();
  return sha;
}

/** The default branch's commit: the sample tree, stored the first time a pull request needs it. */
export async function baseCommit(db: Db, projectId: string, productName: string): Promise<string> {
  const root = await db
    .selectFrom("sandbox_commits")
    .select("sha")
    .where("project_id", "=", projectId)
    .where("parent_sha", "is", null)
    .orderBy("created_at")
    .limit(1)
    .executeTakeFirst();
  return root?.sha ?? commit(db, projectId, null, baseTree(productName));
}

export async function treeAt(db: Db, projectId: string, sha: string): Promise<Tree | null> {
  const row = await db
    .selectFrom("sandbox_commits")
    .select("tree")
    .where("project_id", "=", projectId)
    .where("sha", "=", sha)
    .executeTakeFirst();
  return row?.tree ?? null;
}

/** GitHub's "list pull request files" answer from one commit to another, paths in order. */
export async function changedFiles(
  db: Db,
  projectId: string,
  fromSha: string,
  toSha: string,
): Promise<PullRequestFile[]> {
  const [from, to] = await Promise.all([treeAt(db, projectId, fromSha), treeAt(db, projectId, toSha)]);
  if (!from || !to) throw new CommitNotFoundError("unknown sandbox commit");
  const paths = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  return paths.flatMap((path): PullRequestFile[] => {
    const before = from[path] ?? null;
    const after = to[path] ?? null;
    if (before === after) return [];
    const { patch, additions, deletions } = filePatch(before, after);
    const status = before === null ? "added" : after === null ? "removed" : "modified";
    return [{ filename: path, status, additions, deletions, ...(patch ? { patch } : {}) }];
  });
}

export interface FileChange {
  path: string;
  content: string;
}

const withChange = (tree: Tree, change: FileChange): Tree => ({ ...tree, [change.path]: change.content });

/** Opens a pull request with one commit on top of the default branch; numbered after the last one. */
export async function openPullRequest(
  trx: Db,
  project: Pick<SandboxProject, "id" | "org_id">,
  pull: { title: string; author: string; change: FileChange },
  productName: string,
) {
  // Holds the project row so two pull requests opened at once get two numbers.
  await trx.selectFrom("projects").select("id").where("id", "=", project.id).forUpdate().execute();
  const baseSha = await baseCommit(trx, project.id, productName);
  const base = (await treeAt(trx, project.id, baseSha)) ?? baseTree(productName);
  const headSha = await commit(trx, project.id, baseSha, withChange(base, pull.change));
  const last = await trx
    .selectFrom("sandbox_pull_requests")
    .select((eb) => eb.fn.max("number").as("number"))
    .where("project_id", "=", project.id)
    .executeTakeFirst();
  const number = (last?.number ?? 0) + 1;
  const row = await trx
    .insertInto("sandbox_pull_requests")
    .values({
      org_id: project.org_id,
      project_id: project.id,
      number,
      title: pull.title,
      author: pull.author,
      base_sha: baseSha,
      head_sha: headSha,
      head_ref: `sandbox/pull-${number}`,
    })
    .returning(["id", "number", "title", "base_sha", "head_sha"])
    .executeTakeFirstOrThrow();
  return row;
}

/** A pull request of the organisation's; undefined for another organisation's. */
export function pullRequestOf(db: Db, orgId: string, pullId: string) {
  return db
    .selectFrom("sandbox_pull_requests")
    .selectAll()
    .where("id", "=", pullId)
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}
export type SandboxPullRequest = NonNullable<Awaited<ReturnType<typeof pullRequestOf>>>;

/** Pushes a commit with one file changed onto the pull request's branch; answers the new head. */
export async function pushCommit(trx: Db, pull: SandboxPullRequest, change: FileChange): Promise<string> {
  const head = (await treeAt(trx, pull.project_id, pull.head_sha)) ?? {};
  const headSha = await commit(trx, pull.project_id, pull.head_sha, withChange(head, change));
  await trx
    .updateTable("sandbox_pull_requests")
    .set({ head_sha: headSha, updated_at: new Date() })
    .where("id", "=", pull.id)
    .execute();
  return headSha;
}

/** A person's comment on the pull request, as GitHub holds an issue comment; answers its id. */
export async function postComment(
  trx: Db,
  pull: Pick<SandboxPullRequest, "id">,
  comment: { author: string; body: string },
): Promise<number> {
  const { id } = await trx
    .insertInto("sandbox_reviews")
    .values({ pull_request_id: pull.id, kind: "comment", commit_id: null, ...comment })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

export function pullRequestsOf(db: Db, projectId: string) {
  return db
    .selectFrom("sandbox_pull_requests")
    .selectAll()
    .where("project_id", "=", projectId)
    .orderBy("number", "desc")
    .execute();
}

/** Reviews and plain comments of a pull request, oldest first, each review with its line comments. */
export async function postedOn(db: Db, pullId: string) {
  const reviews = await db
    .selectFrom("sandbox_reviews")
    .selectAll()
    .where("pull_request_id", "=", pullId)
    .orderBy("id")
    .execute();
  const comments = reviews.length
    ? await db
        .selectFrom("sandbox_review_comments")
        .selectAll()
        .where(
          "review_id",
          "in",
          reviews.map((review) => review.id),
        )
        .orderBy("id")
        .execute()
    : [];
  return reviews.map((review) => ({
    ...review,
    comments: comments.filter((comment) => comment.review_id === review.id),
  }));
}

/** The checks on the pull request's head commit, the latest of each name, as GitHub lists them. */
export async function checksOn(db: Db, pullId: string, headSha: string) {
  const rows = await db
    .selectFrom("sandbox_checks")
    .selectAll()
    .where("pull_request_id", "=", pullId)
    .where("head_sha", "=", headSha)
    .orderBy("id", "desc")
    .execute();
  return rows.filter((row, index) => rows.findIndex((other) => other.name === row.name) === index);
}

/** Each comment's 👍 and 👎 counts, and which of them `userId` pressed (none for the review host). */
export async function reactionsOn(
  db: Db,
  commentIds: readonly number[],
  userId: string | null,
): Promise<Map<number, SandboxReactions>> {
  const reactions = new Map<number, SandboxReactions>(
    commentIds.map((id) => [id, { "+1": 0, "-1": 0, mine: [] }]),
  );
  if (commentIds.length === 0) return reactions;
  const rows = await db
    .selectFrom("sandbox_comment_reactions")
    .select(["comment_id", "user_id", "content"])
    .where("comment_id", "in", [...commentIds])
    .orderBy("content")
    .execute();
  for (const row of rows) {
    const counts = reactions.get(row.comment_id);
    if (!counts) continue;
    counts[row.content] += 1;
    if (row.user_id === userId) counts.mine.push(row.content);
  }
  return reactions;
}

/** A line comment on one of the organisation's pull requests, with its project; undefined otherwise. */
export function commentOf(db: Db, orgId: string, commentId: number) {
  return db
    .selectFrom("sandbox_review_comments as comment")
    .innerJoin("sandbox_reviews as review", "review.id", "comment.review_id")
    .innerJoin("sandbox_pull_requests as pull", "pull.id", "review.pull_request_id")
    .select(["comment.id", "comment.body", "pull.project_id", "pull.number"])
    .where("comment.id", "=", commentId)
    .where("pull.org_id", "=", orgId)
    .executeTakeFirst();
}

/** Presses (or releases) one person's reaction on a comment; pressing twice is one reaction, as on GitHub. */
export async function react(
  db: Db,
  reaction: { commentId: number; userId: string; content: SandboxReaction; pressed: boolean },
): Promise<void> {
  if (reaction.pressed) {
    await db
      .insertInto("sandbox_comment_reactions")
      .values({ comment_id: reaction.commentId, user_id: reaction.userId, content: reaction.content })
      .onConflict((conflict) => conflict.columns(["comment_id", "user_id", "content"]).doNothing())
      .execute();
    return;
  }
  await db
    .deleteFrom("sandbox_comment_reactions")
    .where("comment_id", "=", reaction.commentId)
    .where("user_id", "=", reaction.userId)
    .where("content", "=", reaction.content)
    .execute();
}
