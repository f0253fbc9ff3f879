import { type Kysely, type Migration, sql } from "kysely";

export const sandboxPullRequests: Migration = {
  async up(db: Kysely<unknown>) {
    // The sandbox code host's commits: a whole tree (path → text) each, since its files are a few
    // small samples. The sha is a hash of the parent and the tree.
    await db.schema
      .createTable("sandbox_commits")
      .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("sha", "text", (c) => c.notNull())
      .addColumn("parent_sha", "text")
      .addColumn("tree", "jsonb", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("sandbox_commits_pk", ["project_id", "sha"])
      .execute();
    // A pull request of a sandbox repository, numbered per repository as GitHub numbers them.
    await db.schema
      .createTable("sandbox_pull_requests")
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("number", "integer", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("author", "text", (c) => c.notNull())
      .addColumn("base_sha", "text", (c) => c.notNull())
      .addColumn("head_sha", "text", (c) => c.notNull())
      .addColumn("head_ref", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint("sandbox_pull_requests_number", ["project_id", "number"])
      .execute();
    // What was posted on a pull request, as GitHub holds it: a review (its body, the commit it is
    // about) with its line comments, or a plain comment.
    await db.schema
      .createTable("sandbox_reviews")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("pull_request_id", "uuid", (c) =>
        c.notNull().references("sandbox_pull_requests.id").onDelete("cascade"),
      )
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("commit_id", "text")
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint("sandbox_reviews_kind", sql`kind in ('review', 'comment')`)
      .execute();
    await db.schema
      .createTable("sandbox_review_comments")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("review_id", "integer", (c) =>
        c.notNull().references("sandbox_reviews.id").onDelete("cascade"),
      )
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("line", "integer", (c) => c.notNull())
      .addColumn("side", "text", (c) => c.notNull().defaultTo("RIGHT"))
      .addColumn("commit_id", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("sandbox_review_comments_review_idx")
      .on("sandbox_review_comments")
      .column("review_id")
      .execute();
  },
};
