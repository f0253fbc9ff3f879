/**
 * A code host serving the quality corpus: case N of the list is pull request N, from its base to its
 * head (applied patch). Like GitHub it takes a line comment only on a line the diff shows (the others
 * go into the summary), reads its own hidden fingerprint markers back, and keeps every review posted,
 * in order, so the benchmark can tell the first run's comments from the second's.
 */
import { createHash } from "node:crypto";
import {
  CommitNotFoundError,
  type PostedReview,
  type PullRequestInfo,
  type ReviewHost,
  type ReviewToPost,
} from "../../backend/code-hosts/review-host.ts";
import { fromPullRequestFiles, RightSideIndex } from "../../backend/review/pipeline/diff.ts";
import { summaryWithMoved } from "../../backend/review/pipeline/posting.ts";
import type { CorpusCase } from "./corpus.ts";

const shaOf = (text: string) => createHash("sha1").update(text).digest("hex");

const NO_REACTIONS = { thumbsUp: 0, thumbsDown: 0 } as const;

export interface CorpusReviewHost extends ReviewHost {
  /** The reviews posted on pull request N, in order. */
  reviews: Map<number, ReviewToPost[]>;
  /** Plain comments (answers to commands). */
  comments: Map<number, string[]>;
}

export function corpusReviewHost(cases: readonly CorpusCase[]): CorpusReviewHost {
  const pulls = cases.map((corpusCase, index) => {
    const number = index + 1;
    const info: PullRequestInfo = {
      number,
      title: corpusCase.title,
      url: `https://quality.invalid/corpus/${corpusCase.id}`,
      author: { login: "quality-bench", isBot: false },
      draft: false,
      state: "open",
      headSha: shaOf(`${corpusCase.id}:head`),
      baseSha: shaOf(`${corpusCase.id}:base`),
      headRef: corpusCase.id,
      baseRef: "main",
    };
    return { info, corpusCase, shown: new RightSideIndex(fromPullRequestFiles(corpusCase.files)) };
  });
  const pull = (number: number) => {
    const found = pulls[number - 1];
    if (!found) throw new Error(`no pull request ${number} in the corpus`);
    return found;
  };
  const host: CorpusReviewHost = {
    reviews: new Map(),
    comments: new Map(),
    async pullRequest(number) {
      return structuredClone(pull(number).info);
    },
    async changedFiles(number, from, to) {
      const { info, corpusCase } = pull(number);
      if (from === to) return [];
      if (from !== info.baseSha || to !== info.headSha) throw new CommitNotFoundError(`${from}...${to}`);
      return structuredClone(corpusCase.files);
    },
    async fileContent(path, sha) {
      const found = pulls.find(({ info }) => info.headSha === sha || info.baseSha === sha);
      if (!found) return null;
      const tree = sha === found.info.headSha ? found.corpusCase.head : found.corpusCase.base;
      return tree.get(path) ?? null;
    },
    async postedFindings(number, readMarkers) {
      const texts = (host.reviews.get(number) ?? []).flatMap((review) => [
        review.summary,
        ...review.comments.map((comment) => comment.body),
      ]);
      // Nobody reacts to a benchmark's comments.
      return new Map(texts.flatMap((text) => readMarkers(text)).map((fp) => [fp, NO_REACTIONS]));
    },
    async postReview(number, review): Promise<PostedReview> {
      const { shown } = pull(number);
      const moved = review.comments.filter((comment) => !shown.has(comment.path, comment.line));
      const kept = { ...review, summary: summaryWithMoved(review.summary, moved) };
      kept.comments = review.comments.filter((comment) => !moved.includes(comment));
      host.reviews.set(number, [...(host.reviews.get(number) ?? []), kept]);
      return {
        posted: kept.comments.length,
        movedToSummary: moved.length,
        ...(moved.length ? { movedFingerprints: moved.map((comment) => comment.fingerprint) } : {}),
      };
    },
    async comment(number, body) {
      host.comments.set(number, [...(host.comments.get(number) ?? []), body]);
    },
  };
  return host;
}
