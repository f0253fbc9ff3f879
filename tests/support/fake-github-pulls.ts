/**
 * The fake GitHub's pull requests (tests/support/fake-github.ts), for the review engine, with an
 * installation token and in GitHub's documented shapes (checked in fake-github-fidelity.test.ts):
 * GET /repos/{o}/{r}/pulls/{n}, GET /repos/{o}/{r}/compare/{base}...{head} (files with patches),
 * GET /repos/{o}/{r}/contents/{path}?ref (raw; a folder lists its entries), GET and POST /repos/{o}/{r}/pulls/{n}/reviews,
 * GET /repos/{o}/{r}/pulls/{n}/comments (each with its `reactions` rollup), POST
 * /repos/{o}/{r}/pulls/comments/{id}/reactions (201 new, 200 when that person already reacted so),
 * DELETE /repos/{o}/{r}/pulls/comments/{id}/reactions/{reaction_id} and
 * POST /repos/{o}/{r}/issues/{n}/comments, POST /repos/{o}/{r}/check-runs and PATCH
 * /repos/{o}/{r}/check-runs/{id} (`refuseChecks`: 403, an App without the checks permission), and on
 * POST /graphql a pull request's review threads and resolveReviewThread. A review
 * with a comment on a line outside the pull request's diff is refused with GitHub's 422, as a
 * whole; `rateLimitNextReview` makes the next review answer GitHub's secondary rate limit (403
 * with retry-after) once.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export interface FakePullRequestFile {
  filename: string;
  status: "added" | "modified" | "removed" | "renamed";
  patch?: string;
  previous_filename?: string;
}

export interface FakePullRequest {
  number: number;
  title: string;
  author: { login: string; type: "User" | "Bot" };
  draft?: boolean;
  state?: "open" | "closed";
  merged?: boolean;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
}

/** A review as the fake took it. */
export interface FakeReview {
  id: number;
  pullRequest: number;
  commitId: string;
  event: string;
  body: string;
  /** Each line comment opens a review thread; `resolved` once resolveReviewThread resolved it. */
  comments: Array<{ path: string; line: number; side: string; body: string; resolved?: true }>;
}

export interface FakeGitHubPulls {
  addPullRequest(fullName: string, pullRequest: FakePullRequest): void;
  /** Moves a pull request's head (a push). */
  pushTo(fullName: string, number: number, headSha: string): void;
  /** What GET compare/{base}...{head} answers. */
  setDiff(fullName: string, base: string, head: string, files: FakePullRequestFile[]): void;
  setContent(fullName: string, sha: string, path: string, text: string): void;
  /** Reviews taken, in order, on every repository. */
  reviews: FakeReview[];
  /** Plain comments taken (answers to bot commands). */
  issueComments: Array<{ pullRequest: number; body: string }>;
  /** The next POST of a review answers 403 with retry-after: 1 (a secondary rate limit), once. */
  rateLimitNextReview: boolean;
  /** Reviews are taken but never answered (the poster dies waiting: a crash test). */
  holdReviews: boolean;
  /** Check runs created, each as last updated. */
  checkRuns: FakeCheckRun[];
  /** Check runs are refused with 403, as for an App installed without the checks permission. */
  refuseChecks: boolean;
}

export interface FakeCheckRun {
  id: number;
  repository: string;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  started_at: string | null;
  completed_at: string | null;
  output: { title: string | null; summary: string | null };
}

/** GitHub's reaction contents; the rollup counts each. */
const REACTIONS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket"] as const;
type ReactionContent = (typeof REACTIONS)[number];

interface FakeReaction {
  id: number;
  commentId: number;
  user: { login: string; id: number; type: "User" | "Bot" };
  content: ReactionContent;
}

type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;
type UserOf = (login: string, id: number, type: "User" | "Bot") => Record<string, unknown>;

const AT = "2026-11-20T10:00:00Z";
const BOT_LOGIN = "argus-test[bot]";
const BOT_ID = 900_001;

/** The right-side lines a patch shows (added and context): where GitHub lets a comment sit. */
function rightSideLines(patch: string | undefined): Set<number> {
  const lines = new Set<number>();
  let line = 0;
  for (const text of (patch ?? "").split("\n")) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) line = Number(header[1]);
    else if (text.startsWith("+") || text.startsWith(" ")) lines.add(line++);
  }
  return lines;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

/** `api`: the fake's address, known once it listens. */
export function createFakeGitHubPulls(api: () => string, send: Send, userOf: UserOf) {
  const pulls = new Map<string, FakePullRequest>();
  const diffs = new Map<string, FakePullRequestFile[]>();
  const contents = new Map<string, string>();
  const key = (...parts: Array<string | number>) => parts.join("\u0000");
  let nextId = 5000;
  const bot = () => userOf(BOT_LOGIN, BOT_ID, "Bot");

  const reactions: FakeReaction[] = [];
  const state: FakeGitHubPulls = {
    reviews: [],
    issueComments: [],
    rateLimitNextReview: false,
    holdReviews: false,
    checkRuns: [],
    refuseChecks: false,
    addPullRequest(fullName, pullRequest) {
      pulls.set(key(fullName, pullRequest.number), structuredClone(pullRequest));
    },
    pushTo(fullName, number, headSha) {
      const pull = pulls.get(key(fullName, number));
      if (pull) pull.head.sha = headSha;
    },
    setDiff(fullName, base, head, files) {
      diffs.set(key(fullName, base, head), files);
    },
    setContent(fullName, sha, path, text) {
      contents.set(key(fullName, sha, path), text);
    },
  };

  const repoUrl = (fullName: string) => `${api()}/repos/${fullName}`;
  const web = (fullName: string) => `https://github.com/${fullName}`;

  function branch(fullName: string, side: { ref: string; sha: string }, repo: Record<string, unknown>) {
    return {
      label: `${fullName.split("/")[0]}:${side.ref}`,
      ref: side.ref,
      sha: side.sha,
      user: userOf(fullName.split("/")[0] ?? "", 77, "User"),
      repo,
    };
  }

  function pullAnswer(fullName: string, pull: FakePullRequest, repo: Record<string, unknown>) {
    const url = `${repoUrl(fullName)}/pulls/${pull.number}`;
    const html = `${web(fullName)}/pull/${pull.number}`;
    const issue = `${repoUrl(fullName)}/issues/${pull.number}`;
    const closed = pull.state === "closed" || pull.merged === true;
    return {
      url,
      id: 1_000_000 + pull.number,
      node_id: `PR_${pull.number}`,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${repoUrl(fullName)}/pulls/comments{/number}`,
      comments_url: `${issue}/comments`,
      statuses_url: `${repoUrl(fullName)}/statuses/${pull.head.sha}`,
      number: pull.number,
      state: closed ? "closed" : "open",
      locked: false,
      title: pull.title,
      user: userOf(pull.author.login, 4242, pull.author.type),
      body: null,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      created_at: AT,
      updated_at: AT,
      closed_at: closed ? AT : null,
      merged_at: pull.merged ? AT : null,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: branch(fullName, pull.head, repo),
      base: branch(fullName, pull.base, repo),
      _links: {
        self: { href: url },
        html: { href: html },
        issue: { href: issue },
        comments: { href: `${issue}/comments` },
        review_comments: { href: `${url}/comments` },
        review_comment: { href: `${repoUrl(fullName)}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${repoUrl(fullName)}/statuses/${pull.head.sha}` },
      },
      author_association: "MEMBER",
      auto_merge: null,
      draft: pull.draft === true,
      merged: pull.merged === true,
      mergeable: true,
      rebaseable: true,
      mergeable_state: "clean",
      merged_by: null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: 0,
    };
  }

  function commitAnswer(fullName: string, sha: string) {
    const person = { name: "Dev", email: "dev@example.com", date: AT };
    return {
      url: `${repoUrl(fullName)}/commits/${sha}`,
      sha,
      node_id: `C_${sha.slice(0, 8)}`,
      html_url: `${web(fullName)}/commit/${sha}`,
      comments_url: `${repoUrl(fullName)}/commits/${sha}/comments`,
      commit: {
        url: `${repoUrl(fullName)}/git/commits/${sha}`,
        author: person,
        committer: person,
        message: "A change",
        comment_count: 0,
        tree: { sha: "f".repeat(40), url: `${repoUrl(fullName)}/git/trees/${"f".repeat(40)}` },
      },
      author: null,
      committer: null,
      parents: [],
    };
  }

  function reviewAnswer(fullName: string, review: FakeReview) {
    const pr = `${repoUrl(fullName)}/pulls/${review.pullRequest}`;
    const html = `${web(fullName)}/pull/${review.pullRequest}#pullrequestreview-${review.id}`;
    return {
      id: review.id,
      node_id: `PRR_${review.id}`,
      user: bot(),
      body: review.body,
      state: review.event === "REQUEST_CHANGES" ? "CHANGES_REQUESTED" : "COMMENTED",
      html_url: html,
      pull_request_url: pr,
      _links: { html: { href: html }, pull_request: { href: pr } },
      submitted_at: AT,
      commit_id: review.commitId,
      author_association: "NONE",
    };
  }

  function reviewCommentAnswers(fullName: string, review: FakeReview) {
    const pr = `${repoUrl(fullName)}/pulls/${review.pullRequest}`;
    return review.comments.map((comment, index) => {
      const id = review.id * 100 + index;
      const url = `${repoUrl(fullName)}/pulls/comments/${id}`;
      const html = `${web(fullName)}/pull/${review.pullRequest}#discussion_r${id}`;
      return {
        url,
        id,
        node_id: `PRRC_${id}`,
        pull_request_review_id: review.id,
        diff_hunk: "@@ -1,1 +1,1 @@",
        path: comment.path,
        commit_id: review.commitId,
        original_commit_id: review.commitId,
        user: bot(),
        body: comment.body,
        created_at: AT,
        updated_at: AT,
        html_url: html,
        pull_request_url: pr,
        author_association: "NONE",
        _links: { self: { href: url }, html: { href: html }, pull_request: { href: pr } },
        line: comment.line,
        side: "RIGHT",
        reactions: rollup(fullName, id),
      };
    });
  }

  /** GitHub's "reaction-rollup" of a review comment. */
  function rollup(fullName: string, commentId: number) {
    const on = reactions.filter((reaction) => reaction.commentId === commentId);
    return {
      url: `${repoUrl(fullName)}/pulls/comments/${commentId}/reactions`,
      total_count: on.length,
      ...Object.fromEntries(
        REACTIONS.map((content) => [content, on.filter((reaction) => reaction.content === content).length]),
      ),
    };
  }

  const reactionAnswer = (reaction: FakeReaction) => ({
    id: reaction.id,
    node_id: `REA_${reaction.id}`,
    user: userOf(reaction.user.login, reaction.user.id, reaction.user.type),
    content: reaction.content,
    created_at: AT,
  });

  /** POST …/pulls/comments/{id}/reactions and DELETE …/reactions/{reaction_id}; false when not one. */
  async function reactionCall(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    actor: FakeReaction["user"],
  ): Promise<boolean> {
    const match = /^\/pulls\/comments\/(\d+)\/reactions(?:\/(\d+))?$/.exec(rest);
    if (!match) return false;
    const commentId = Number(match[1]);
    const exists = state.reviews.some(
      (review) => commentId >= review.id * 100 && commentId < review.id * 100 + review.comments.length,
    );
    if (!exists) {
      send(res, 404, {
        message: "Not Found",
        documentation_url: "https://docs.github.com/rest",
        status: "404",
      });
      return true;
    }
    if (req.method === "POST" && !match[2]) {
      const content = (await readJson(req)).content;
      if (!REACTIONS.includes(content as ReactionContent)) {
        send(res, 422, {
          message: "Validation Failed",
          errors: [{ resource: "Reaction", code: "invalid", field: "content" }],
          documentation_url:
            "https://docs.github.com/rest/reactions/reactions#create-reaction-for-a-pull-request-review-comment",
          status: "422",
        });
        return true;
      }
      const already = reactions.find(
        (reaction) =>
          reaction.commentId === commentId &&
          reaction.user.login === actor.login &&
          reaction.content === content,
      );
      if (already) {
        send(res, 200, reactionAnswer(already));
        return true;
      }
      const reaction: FakeReaction = {
        id: nextId++,
        commentId,
        user: actor,
        content: content as ReactionContent,
      };
      reactions.push(reaction);
      send(res, 201, reactionAnswer(reaction));
      return true;
    }
    if (req.method === "DELETE" && match[2]) {
      const index = reactions.findIndex(
        (reaction) => reaction.commentId === commentId && reaction.id === Number(match[2]),
      );
      if (index >= 0) reactions.splice(index, 1);
      res.writeHead(204);
      res.end();
      return true;
    }
    return false;
  }

  /** A check run as GitHub answers it, with the open pull requests whose head it is on. */
  function checkRunAnswer(run: FakeCheckRun, repo: Record<string, unknown>) {
    const url = `${repoUrl(run.repository)}/check-runs/${run.id}`;
    const side = (ref: string, sha: string) => ({
      ref,
      sha,
      repo: { id: repo.id, url: repoUrl(run.repository), name: repo.name },
    });
    const { repository: _repository, ...fields } = run;
    return {
      ...fields,
      node_id: Buffer.from(`CheckRun:${run.id}`).toString("base64"),
      external_id: "",
      url,
      html_url: `${web(run.repository)}/runs/${run.id}`,
      output: { ...run.output, text: null, annotations_count: 0, annotations_url: `${url}/annotations` },
      check_suite: { id: run.id + 100_000 },
      app: null,
      pull_requests: [...pulls.values()]
        .filter((pull) => pull.head.sha === run.head_sha && (pull.state ?? "open") === "open")
        .map((pull) => ({
          id: pull.number + 1000,
          number: pull.number,
          url: `${repoUrl(run.repository)}/pulls/${pull.number}`,
          head: side(pull.head.ref, pull.head.sha),
          base: side(pull.base.ref, pull.base.sha),
        })),
    };
  }

  /** POST …/check-runs and PATCH …/check-runs/{id}, with the installation's token; false when not one. */
  async function checkRunCall(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    repo: { fullName: string; answer: Record<string, unknown>; person?: unknown },
  ): Promise<boolean> {
    const match = /^\/check-runs(?:\/(\d+))?$/.exec(rest);
    if (!match || repo.person) return false;
    if (state.refuseChecks) {
      send(res, 403, {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest/checks/runs#create-a-check-run",
        status: "403",
      });
      return true;
    }
    const body = (await readJson(req)) as {
      name?: string;
      head_sha?: string;
      status?: string;
      conclusion?: string;
      details_url?: string;
      started_at?: string;
      completed_at?: string;
      output?: { title?: string; summary?: string };
    };
    const now = new Date().toISOString();
    const completed = body.status === "completed" || body.conclusion !== undefined;
    if (req.method === "POST" && !match[1]) {
      if (!body.name || !body.head_sha || (completed && !body.conclusion)) {
        send(res, 422, {
          message: "Invalid request.",
          documentation_url: "https://docs.github.com/rest/checks/runs",
        });
        return true;
      }
      const run: FakeCheckRun = {
        id: nextId++,
        repository: repo.fullName,
        name: body.name,
        head_sha: body.head_sha,
        status: completed ? "completed" : (body.status ?? "queued"),
        conclusion: body.conclusion ?? null,
        details_url: body.details_url ?? null,
        started_at: body.started_at ?? now,
        completed_at: completed ? (body.completed_at ?? now) : null,
        output: { title: body.output?.title ?? null, summary: body.output?.summary ?? null },
      };
      state.checkRuns.push(run);
      send(res, 201, checkRunAnswer(run, repo.answer));
      return true;
    }
    const run = state.checkRuns.find(
      (candidate) => candidate.id === Number(match[1]) && candidate.repository === repo.fullName,
    );
    if (req.method === "PATCH" && run) {
      if (completed && !body.conclusion) {
        send(res, 422, {
          message: "Invalid request.",
          documentation_url: "https://docs.github.com/rest/checks/runs",
        });
        return true;
      }
      Object.assign(run, {
        ...(body.name ? { name: body.name } : {}),
        ...(body.details_url ? { details_url: body.details_url } : {}),
        ...(body.status ? { status: body.status } : {}),
        ...(completed
          ? { status: "completed", conclusion: body.conclusion, completed_at: body.completed_at ?? now }
          : {}),
        ...(body.output
          ? { output: { title: body.output.title ?? null, summary: body.output.summary ?? null } }
          : {}),
      });
      send(res, 200, checkRunAnswer(run, repo.answer));
      return true;
    }
    return false;
  }

  /** Answers a pull-request call of repository `fullName`; false when the path is not one. */
  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    repo: {
      fullName: string;
      answer: Record<string, unknown>;
      /** A person's token: they may read and react. Unset: the installation (the app, a bot). */
      person?: { login: string; id: number } | undefined;
    },
  ): Promise<boolean> {
    const { fullName } = repo;
    const rest = path.slice(`/repos/${fullName}`.length);
    const actor = repo.person
      ? { ...repo.person, type: "User" as const }
      : { login: BOT_LOGIN, id: BOT_ID, type: "Bot" as const };
    if (await reactionCall(req, res, rest, actor)) return true;
    if (repo.person && req.method !== "GET") return false;
    if (await checkRunCall(req, res, rest, repo)) return true;
    const query = new URL(req.url ?? "/", "http://localhost").searchParams;
    const pullPath = /^\/pulls\/(\d+)(\/reviews|\/comments)?$/.exec(rest);
    const pull = pullPath ? pulls.get(key(fullName, Number(pullPath[1]))) : undefined;
    if (pullPath && !pull) return false;

    if (req.method === "GET" && pull && !pullPath?.[2]) {
      send(res, 200, pullAnswer(fullName, pull, repo.answer));
      return true;
    }
    if (req.method === "GET" && pull && pullPath?.[2] === "/reviews") {
      const taken = state.reviews.filter((review) => review.pullRequest === pull.number);
      send(
        res,
        200,
        taken.map((review) => reviewAnswer(fullName, review)),
      );
      return true;
    }
    if (req.method === "GET" && pull && pullPath?.[2] === "/comments") {
      const taken = state.reviews.filter((review) => review.pullRequest === pull.number);
      send(
        res,
        200,
        taken.flatMap((review) => reviewCommentAnswers(fullName, review)),
      );
      return true;
    }
    if (req.method === "POST" && pull && pullPath?.[2] === "/reviews") {
      if (state.rateLimitNextReview) {
        state.rateLimitNextReview = false;
        send(
          res,
          403,
          {
            message:
              "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            documentation_url:
              "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
            status: "403",
          },
          { "retry-after": "1" },
        );
        return true;
      }
      const body = await readJson(req);
      const comments = (Array.isArray(body.comments) ? body.comments : []) as FakeReview["comments"];
      const files = diffs.get(key(fullName, pull.base.sha, pull.head.sha)) ?? [];
      const outside = comments.some(
        (comment) =>
          !rightSideLines(files.find((file) => file.filename === comment.path)?.patch).has(comment.line),
      );
      if (outside) {
        send(res, 422, {
          message: "Unprocessable Entity",
          errors: ["Line could not be resolved"],
          documentation_url: "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request",
          status: "422",
        });
        return true;
      }
      const review: FakeReview = {
        id: nextId++,
        pullRequest: pull.number,
        commitId: String(body.commit_id ?? pull.head.sha),
        event: String(body.event ?? "COMMENT"),
        body: String(body.body ?? ""),
        comments,
      };
      state.reviews.push(review);
      if (!state.holdReviews) send(res, 200, reviewAnswer(fullName, review));
      return true;
    }
    const issueComment = /^\/issues\/(\d+)\/comments$/.exec(rest);
    if (req.method === "POST" && issueComment) {
      const number = Number(issueComment[1]);
      const body = String((await readJson(req)).body ?? "");
      state.issueComments.push({ pullRequest: number, body });
      const id = nextId++;
      const issue = `${repoUrl(fullName)}/issues/${number}`;
      send(res, 201, {
        id,
        node_id: `IC_${id}`,
        url: `${repoUrl(fullName)}/issues/comments/${id}`,
        html_url: `${web(fullName)}/pull/${number}#issuecomment-${id}`,
        body,
        user: bot(),
        created_at: AT,
        updated_at: AT,
        issue_url: issue,
        author_association: "NONE",
      });
      return true;
    }
    const compare = /^\/compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(rest);
    if (req.method === "GET" && compare) {
      const [, base = "", head = ""] = compare;
      const files = diffs.get(key(fullName, base, head));
      if (!files) {
        send(res, 404, {
          message: "Not Found",
          documentation_url: "https://docs.github.com/rest",
          status: "404",
        });
        return true;
      }
      send(res, 200, {
        url: `${repoUrl(fullName)}/compare/${base}...${head}`,
        html_url: `${web(fullName)}/compare/${base}...${head}`,
        permalink_url: `${web(fullName)}/compare/${fullName.replace("/", ":")}:${base}...${head}`,
        diff_url: `${web(fullName)}/compare/${base}...${head}.diff`,
        patch_url: `${web(fullName)}/compare/${base}...${head}.patch`,
        base_commit: commitAnswer(fullName, base),
        merge_base_commit: commitAnswer(fullName, base),
        status: "ahead",
        ahead_by: 1,
        behind_by: 0,
        total_commits: 1,
        commits: [commitAnswer(fullName, head)],
        files: files.map((file, index) => {
          const patchLines = (file.patch ?? "").split("\n");
          const additions = patchLines.filter((line) => line.startsWith("+")).length;
          const deletions = patchLines.filter((line) => line.startsWith("-")).length;
          return {
            sha: String(index).padStart(40, "a"),
            filename: file.filename,
            status: file.status,
            additions,
            deletions,
            changes: additions + deletions,
            blob_url: `${web(fullName)}/blob/${head}/${file.filename}`,
            raw_url: `${web(fullName)}/raw/${head}/${file.filename}`,
            contents_url: `${repoUrl(fullName)}/contents/${file.filename}?ref=${head}`,
            ...(file.patch !== undefined ? { patch: file.patch } : {}),
            ...(file.previous_filename ? { previous_filename: file.previous_filename } : {}),
          };
        }),
      });
      return true;
    }
    const content = /^\/contents\/(.+)$/.exec(rest);
    if (req.method === "GET" && content) {
      const ref = query.get("ref") ?? "";
      const path = decodeURIComponent(content[1] ?? "").replace(/\/+$/, "");
      const text = contents.get(key(fullName, ref, path));
      const inFolder = [...contents.keys()].flatMap((entry) => {
        const [name, sha, file = ""] = entry.split("\u0000");
        return name === fullName && sha === ref && file.startsWith(`${path}/`) ? [file] : [];
      });
      if (text === undefined && inFolder.length > 0) {
        // A folder: GitHub lists its entries (files and subfolders), each with its links.
        const entries = new Map<string, "file" | "dir">();
        for (const file of inFolder) {
          const rest = file.slice(path.length + 1);
          const [first = ""] = rest.split("/");
          entries.set(`${path}/${first}`, rest.includes("/") ? "dir" : "file");
        }
        send(
          res,
          200,
          [...entries].map(([entryPath, type]) => {
            const sha = createHash("sha1").update(`${ref}:${entryPath}`).digest("hex");
            const self = `${repoUrl(fullName)}/contents/${entryPath}?ref=${ref}`;
            const html = `${web(fullName)}/${type === "dir" ? "tree" : "blob"}/${ref}/${entryPath}`;
            const git = `${repoUrl(fullName)}/git/${type === "dir" ? "trees" : "blobs"}/${sha}`;
            return {
              type,
              name: entryPath.split("/").at(-1),
              path: entryPath,
              sha,
              size:
                type === "file" ? Buffer.byteLength(contents.get(key(fullName, ref, entryPath)) ?? "") : 0,
              url: self,
              html_url: html,
              git_url: git,
              download_url: type === "file" ? `${web(fullName)}/raw/${ref}/${entryPath}` : null,
              _links: { self, git, html },
            };
          }),
        );
        return true;
      }
      if (text === undefined) {
        send(res, 404, {
          message: "Not Found",
          documentation_url: "https://docs.github.com/rest",
          status: "404",
        });
        return true;
      }
      // Asked for `application/vnd.github.raw`: the file's bytes.
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(text);
      return true;
    }
    return false;
  }

  /**
   * POST /graphql, the two operations the review engine sends: a pull request's `reviewThreads`
   * (each line comment opens one, `PRRT_{comment id}`, its first comment the app's) and the
   * `resolveReviewThread` mutation, in GitHub's GraphQL shapes (`data`, and `errors` with
   * `type: "NOT_FOUND"` for what the token cannot see). `installed`: the token's repositories.
   */
  async function graphql(req: IncomingMessage, res: ServerResponse, installed: readonly string[]) {
    const { query, variables } = (await readJson(req)) as {
      query?: string;
      variables?: Record<string, unknown>;
    };
    const notFound = (message: string, path: string) =>
      send(res, 200, {
        data: { [path]: null },
        errors: [{ type: "NOT_FOUND", path: [path], locations: [{ line: 2, column: 3 }], message }],
      });
    const threads = state.reviews.flatMap((review) =>
      review.comments.map((comment, index) => ({ review, comment, id: review.id * 100 + index })),
    );
    if (query?.includes("resolveReviewThread")) {
      const threadId = String(variables?.threadId ?? "");
      const found = threads.find(({ id }) => `PRRT_${id}` === threadId);
      // A review knows its pull request's number only: the token must see a repository that has it.
      if (!found || !installed.some((fullName) => pulls.has(key(fullName, found.review.pullRequest)))) {
        notFound(`Could not resolve to a node with the global id of '${threadId}'`, "resolveReviewThread");
        return;
      }
      found.comment.resolved = true;
      send(res, 200, { data: { resolveReviewThread: { thread: { id: threadId, isResolved: true } } } });
      return;
    }
    if (query?.includes("reviewThreads")) {
      const fullName = `${variables?.owner}/${variables?.name}`;
      const pull = pulls.get(key(fullName, Number(variables?.number)));
      if (!installed.includes(fullName)) {
        notFound(`Could not resolve to a Repository with the name '${fullName}'.`, "repository");
        return;
      }
      const nodes = threads
        .filter(({ review }) => review.pullRequest === pull?.number)
        .map(({ comment, id }) => ({
          id: `PRRT_${id}`,
          isResolved: comment.resolved === true,
          comments: { nodes: [{ body: comment.body, author: { __typename: "Bot", login: "argus-test" } }] },
        }));
      send(res, 200, {
        data: {
          repository: pull
            ? { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } } }
            : { pullRequest: null },
        },
      });
      return;
    }
    send(res, 200, { errors: [{ message: "This fake answers reviewThreads and resolveReviewThread only" }] });
  }

  return { state, handle, graphql };
}
