/**
 * The GitHub App as a review host: reads a pull request and its changes and posts reviews with an
 * installation token (Octokit's App; the token is cached by Octokit for its hour, never logged).
 * `@octokit/plugin-throttling` spaces writes and waits out rate limits (403/429 with retry-after),
 * `@octokit/plugin-retry` retries server errors. A review whose line comments GitHub refuses with
 * 422 (a line outside its diff) is posted again with those comments in the summary. Review threads
 * are resolved through the GraphQL API, the only one that has them. The review's check is a check
 * run (the App's Checks permission, read and write).
 */
import { createPrivateKey } from "node:crypto";
import { App } from "@octokit/app";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import type { Octokit } from "@octokit/rest";
import type { FindingFeedback } from "../../../shared/contract/reviews.ts";
import type { PullRequestFile } from "../../review/pipeline/diff.ts";
import { addReactions } from "../../review/pipeline/feedback.ts";
import { summaryWithMoved } from "../../review/pipeline/posting.ts";
import { CommitNotFoundError, type PullRequestInfo, type ReviewHost } from "../review-host.ts";
import { octokitAt } from "./api-client.ts";

/** Rate-limited calls are retried this many times, then fail (and so the run). */
const RATE_LIMIT_RETRIES = 2;
const PER_PAGE = 100;
/** Comments and reviews read back for fingerprints, at most this many pages of each. */
const PAGES_MAX = 30;

export interface GitHubReviewSettings {
  appId: string;
  privateKey: string;
  apiUrl: string;
  /** How long a retry-after second is, in ms (tests shorten it). */
  retryAfterBaseMs?: number;
}

/** A review comment or a review as read back: its text, who wrote it, and a comment's reactions. */
interface PostedEntry {
  body?: string | null;
  user?: { type?: string } | null;
  reactions?: { "+1"?: number; "-1"?: number };
}

export type GitHubReviewHostFor = (installationId: string, fullName: string) => ReviewHost;

/**
 * A pull request's review threads, each with its first comment: the one that opened it. Threads,
 * and resolving them, exist only in GitHub's GraphQL API.
 */
const REVIEW_THREADS = `query ($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved comments(first: 1) { nodes { body author { __typename } } } }
      }
    }
  }
}`;

const RESOLVE_REVIEW_THREAD = `mutation ($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

interface ReviewThreadsAnswer {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: Array<{
          id: string;
          isResolved: boolean;
          comments: { nodes: Array<{ body: string; author: { __typename: string } | null } | null> };
        } | null>;
      };
    } | null;
  } | null;
}

const statusOf = (error: unknown) =>
  typeof error === "object" && error !== null && "status" in error
    ? (error as { status: unknown }).status
    : undefined;

export function githubReviewHosts(settings: GitHubReviewSettings): GitHubReviewHostFor {
  const privateKey = createPrivateKey(settings.privateKey)
    .export({ type: "pkcs8", format: "pem" })
    .toString();
  const limited = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
    retryCount < RATE_LIMIT_RETRIES && retryAfter <= 120;
  const ReviewOctokit = octokitAt(settings.apiUrl)
    .plugin(throttling, retry)
    .defaults({
      throttle: {
        onRateLimit: limited,
        onSecondaryRateLimit: limited,
        retryAfterBaseValue: settings.retryAfterBaseMs ?? 1000,
      },
    });
  const app = new App({ appId: settings.appId, privateKey, Octokit: ReviewOctokit });

  return (installationId, fullName) => {
    const [owner = "", repo = ""] = fullName.split("/");
    const client = () => app.getInstallationOctokit(Number(installationId)) as Promise<Octokit>;

    return {
      async pullRequest(number): Promise<PullRequestInfo> {
        const octokit = await client();
        const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
        return {
          number: data.number,
          title: data.title,
          url: data.html_url,
          author: { login: data.user.login, isBot: data.user.type === "Bot" },
          draft: data.draft === true,
          state: data.merged ? "merged" : data.state === "open" ? "open" : "closed",
          headSha: data.head.sha,
          baseSha: data.base.sha,
          headRef: data.head.ref,
          baseRef: data.base.ref,
        };
      },

      async changedFiles(_number, fromSha, toSha): Promise<PullRequestFile[]> {
        const octokit = await client();
        // Three dots: the changes on the head side since the merge base, as the pull request shows
        // them. GitHub lists at most 300 files here.
        const basehead = `${fromSha}...${toSha}`;
        const { data } = await octokit.rest.repos
          .compareCommitsWithBasehead({ owner, repo, basehead })
          .catch((error: unknown) => {
            // The repository answered for the pull request just before: a 404 is a commit it lost.
            if (statusOf(error) === 404) throw new CommitNotFoundError(`GitHub does not know ${basehead}`);
            throw error;
          });
        return (data.files ?? []).map((file) => ({
          filename: file.filename,
          ...(file.previous_filename ? { previous_filename: file.previous_filename } : {}),
          status: file.status,
          additions: file.additions,
          deletions: file.deletions,
          ...(file.patch !== undefined ? { patch: file.patch } : {}),
        }));
      },

      async fileContent(path, sha) {
        const octokit = await client();
        try {
          const { data } = await octokit.rest.repos.getContent({
            owner,
            repo,
            path,
            ref: sha,
            mediaType: { format: "raw" },
          });
          const text = String(data);
          return text.includes("\u0000") ? null : text;
        } catch (error) {
          if (statusOf(error) === 404) return null;
          throw error;
        }
      },

      async listFiles(directory, sha) {
        const octokit = await client();
        try {
          // A folder's contents are a list of entries; a file's are one object (not a folder).
          const { data } = await octokit.rest.repos.getContent({ owner, repo, path: directory, ref: sha });
          return Array.isArray(data)
            ? data.filter((entry) => entry.type === "file").map((entry) => entry.path)
            : [];
        } catch (error) {
          if (statusOf(error) === 404) return [];
          throw error;
        }
      },

      async postedFindings(number, readMarkers) {
        const octokit = await client();
        const found = new Map<string, FindingFeedback>();
        const readAll = async (
          list: typeof octokit.rest.pulls.listReviewComments | typeof octokit.rest.pulls.listReviews,
        ) => {
          let pages = 0;
          for await (const { data } of octokit.paginate.iterator(list, {
            owner,
            repo,
            pull_number: number,
            per_page: PER_PAGE,
          })) {
            for (const entry of data as PostedEntry[]) {
              // Only the app's own (a bot's) comments count: a person quoting a marker does not.
              if (entry.user?.type !== "Bot") continue;
              // A review comment carries its reactions' rollup; a review's body has none.
              const counts = {
                thumbsUp: entry.reactions?.["+1"] ?? 0,
                thumbsDown: entry.reactions?.["-1"] ?? 0,
              };
              for (const fp of readMarkers(entry.body)) addReactions(found, fp, counts);
            }
            if (++pages >= PAGES_MAX) break;
          }
        };
        await readAll(octokit.rest.pulls.listReviewComments);
        await readAll(octokit.rest.pulls.listReviews);
        return found;
      },

      async postReview(number, review) {
        const octokit = await client();
        const post = (body: string, comments: typeof review.comments) =>
          octokit.rest.pulls.createReview({
            owner,
            repo,
            pull_number: number,
            commit_id: review.commitSha,
            body,
            event: review.requestChanges ? "REQUEST_CHANGES" : "COMMENT",
            comments: comments.map(({ path, line, body: text }) => ({
              path,
              line,
              side: "RIGHT",
              body: text,
            })),
          });
        try {
          const { data } = await post(review.summary, review.comments);
          return { posted: review.comments.length, movedToSummary: 0, url: data.html_url };
        } catch (error) {
          if (statusOf(error) !== 422 || review.comments.length === 0) throw error;
          // GitHub does not say which comment it refused: all of them go into the summary.
          const { data } = await post(summaryWithMoved(review.summary, review.comments), []);
          return {
            posted: 0,
            movedToSummary: review.comments.length,
            movedFingerprints: review.comments.map((comment) => comment.fingerprint),
            url: data.html_url,
          };
        }
      },

      async comment(number, body) {
        const octokit = await client();
        await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body });
      },

      async startCheck(_number, check) {
        const octokit = await client();
        const { data } = await octokit.rest.checks.create({
          owner,
          repo,
          name: check.name,
          head_sha: check.headSha,
          status: "in_progress",
          started_at: new Date().toISOString(),
          details_url: check.detailsUrl,
          output: { title: "Reviewing", summary: "The review of this commit is under way." },
        });
        return String(data.id);
      },

      async finishCheck(_number, id, end) {
        const octokit = await client();
        await octokit.rest.checks.update({
          owner,
          repo,
          check_run_id: Number(id),
          status: "completed",
          conclusion: end.conclusion,
          completed_at: new Date().toISOString(),
          details_url: end.detailsUrl,
          output: { title: end.title, summary: end.summary },
        });
      },

      async resolveComments(number, fingerprints, readMarkers) {
        const octokit = await client();
        let resolved = 0;
        let after: string | null = null;
        for (let page = 0; page < PAGES_MAX; page++) {
          const answer: ReviewThreadsAnswer = await octokit.graphql(REVIEW_THREADS, {
            owner,
            name: repo,
            number,
            after,
          });
          const threads = answer.repository?.pullRequest?.reviewThreads;
          if (!threads) break;
          for (const thread of threads.nodes) {
            const opener = thread?.comments.nodes[0];
            // Only the app's own open threads: a person quoting a marker does not count.
            if (!thread || thread.isResolved || opener?.author?.__typename !== "Bot") continue;
            if (!readMarkers(opener.body).some((fp) => fingerprints.has(fp))) continue;
            await octokit.graphql(RESOLVE_REVIEW_THREAD, { threadId: thread.id });
            resolved += 1;
          }
          if (!threads.pageInfo.hasNextPage) break;
          after = threads.pageInfo.endCursor;
        }
        return resolved;
      },
    };
  };
}
