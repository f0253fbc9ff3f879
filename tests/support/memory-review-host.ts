/**
 * A review host in memory for the pipeline's tests: one pull request, its diffs by range, file
 * texts, and what was posted, with the hidden markers read back as a code host would.
 */

import type {
  CheckEnd,
  CheckStart,
  PostedReview,
  PullRequestInfo,
  ReviewHost,
  ReviewToPost,
} from "../../backend/code-hosts/review-host.ts";
import type { PullRequestFile } from "../../backend/review/pipeline/diff.ts";
import { addReactions, NO_FEEDBACK } from "../../backend/review/pipeline/feedback.ts";
import { summaryWithMoved } from "../../backend/review/pipeline/posting.ts";
import type { FindingFeedback } from "../../shared/contract/reviews.ts";

export interface MemoryReviewHost extends ReviewHost {
  info: PullRequestInfo;
  diffs: Map<string, PullRequestFile[]>;
  contents: Map<string, string>;
  reviews: ReviewToPost[];
  comments: string[];
  /** Ranges asked for, `from...to`. */
  asked: string[];
  /** Called after a review is taken and before postReview answers (a crash test stops here). */
  afterPost?: () => Promise<void>;
  /** Fingerprints of line comments to refuse as outside the diff (moved to the summary). */
  refuse: Set<string>;
  /** 👍 and 👎 people gave the line comment of a fingerprint. */
  reactions: Map<string, FindingFeedback>;
  /** Fingerprints of the line comments resolved, read from their markers, in order. */
  resolved: string[];
  /** When set, resolveComments fails with it (a host's error). */
  resolveError?: Error;
  /** The review's checks on the head commit, as started and then concluded. */
  checks: Array<CheckStart & { id: string; end?: CheckEnd }>;
  /** When set, startCheck fails with it (a host that refuses checks). */
  checkError?: Error;
}

export function memoryReviewHost(info: PullRequestInfo): MemoryReviewHost {
  const host: MemoryReviewHost = {
    info,
    diffs: new Map(),
    contents: new Map(),
    reviews: [],
    comments: [],
    asked: [],
    refuse: new Set(),
    reactions: new Map(),
    resolved: [],
    checks: [],
    async pullRequest() {
      return structuredClone(host.info);
    },
    async changedFiles(_number, from, to) {
      host.asked.push(`${from}...${to}`);
      return structuredClone(host.diffs.get(`${from}...${to}`) ?? []);
    },
    async fileContent(path, sha) {
      return host.contents.get(`${sha}:${path}`) ?? null;
    },
    async listFiles(directory, sha) {
      const prefix = `${sha}:${directory}/`;
      return [...host.contents.keys()]
        .filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes("/"))
        .map((key) => key.slice(sha.length + 1));
    },
    async postedFindings(_number, readMarkers) {
      const found = new Map<string, FindingFeedback>();
      for (const review of host.reviews) {
        for (const fp of readMarkers(review.summary)) addReactions(found, fp, NO_FEEDBACK);
        for (const comment of review.comments) {
          const counts = host.reactions.get(comment.fingerprint) ?? NO_FEEDBACK;
          for (const fp of readMarkers(comment.body)) addReactions(found, fp, counts);
        }
      }
      return found;
    },
    async postReview(_number, review): Promise<PostedReview> {
      const moved = review.comments.filter((comment) => host.refuse.has(comment.fingerprint));
      host.reviews.push({
        ...review,
        summary: summaryWithMoved(review.summary, moved),
        comments: review.comments.filter((comment) => !moved.includes(comment)),
      });
      await host.afterPost?.();
      return {
        posted: review.comments.length - moved.length,
        movedToSummary: moved.length,
        ...(moved.length ? { movedFingerprints: moved.map((comment) => comment.fingerprint) } : {}),
      };
    },
    async comment(_number, body) {
      host.comments.push(body);
    },
    async resolveComments(_number, fingerprints, readMarkers) {
      if (host.resolveError) throw host.resolveError;
      let resolved = 0;
      for (const comment of host.reviews.flatMap((review) => review.comments)) {
        const marked = readMarkers(comment.body).filter(
          (fp) => fingerprints.has(fp) && !host.resolved.includes(fp),
        );
        host.resolved.push(...marked);
        if (marked.length) resolved += 1;
      }
      return resolved;
    },
    async startCheck(_number, check) {
      if (host.checkError) throw host.checkError;
      const id = `check-${host.checks.length + 1}`;
      host.checks.push({ ...check, id });
      return id;
    },
    async finishCheck(_number, id, end) {
      const check = host.checks.find((candidate) => candidate.id === id);
      if (!check) throw new Error(`No check ${id}`);
      check.end = end;
    },
  };
  return host;
}
