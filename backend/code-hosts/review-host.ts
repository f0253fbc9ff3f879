/**
 * The review engine's view of a code host: read a pull request and its changes, and post a review
 * back. One adapter per host (GitHub App, Azure DevOps, the sandbox); the pipeline only talks to
 * this port, so a review reads and posts the same way everywhere.
 */
import type { FindingFeedback } from "../../shared/contract/reviews.ts";
import type { PullRequestFile } from "../review/pipeline/diff.ts";
import type { FingerprintReader } from "../review/pipeline/markers.ts";

/**
 * A commit the host does not know: after a force-push the last reviewed head is gone from the
 * branch, and the pipeline reviews from the base instead.
 */
export class CommitNotFoundError extends Error {
  override name = "CommitNotFoundError";
}

export interface PullRequestInfo {
  number: number;
  title: string;
  /** Where a person opens the pull request. */
  url: string;
  author: { login: string; isBot: boolean };
  draft: boolean;
  state: "open" | "closed" | "merged";
  headSha: string;
  baseSha: string;
  headRef: string;
  baseRef: string;
}

/** A comment on one right-side line of the head commit; the line must be inside the diff. */
export interface LineComment {
  path: string;
  line: number;
  body: string;
  fingerprint: string;
}

/** One review: a summary and its line comments, about one head commit, posted at once. */
export interface ReviewToPost {
  commitSha: string;
  summary: string;
  comments: LineComment[];
  /**
   * Ask for changes (GitHub's REQUEST_CHANGES event) rather than only comment; hosts without such
   * a verdict ignore it.
   */
  requestChanges?: boolean;
}

export interface PostedReview {
  /** Line comments the host took; the others were moved into the summary (outside the diff). */
  posted: number;
  movedToSummary: number;
  /** The fingerprints of the comments moved into the summary; absent when none were. */
  movedFingerprints?: string[];
  url?: string | undefined;
}

/** A review's check on the head commit as it starts: its name, and the run page it links to. */
export interface CheckStart {
  name: string;
  headSha: string;
  detailsUrl: string;
}

/**
 * How the review ended, as a check concludes (GitHub's words): `success` when it was posted,
 * `skipped` when there was nothing to review, `neutral` when it did not finish. A review never
 * fails the check: whether its findings block a merge is the team's call (request_changes).
 */
export interface CheckEnd {
  conclusion: "success" | "neutral" | "skipped";
  title: string;
  summary: string;
  detailsUrl: string;
}

/**
 * Our findings on a pull request, by fingerprint, with the 👍 and 👎 people gave them (a finding
 * listed in a review's body has none: reactions are on comments).
 */
export type PostedFindings = ReadonlyMap<string, FindingFeedback>;

export interface ReviewHost {
  pullRequest(number: number): Promise<PullRequestInfo>;
  /**
   * The files changed from `fromSha` (exclusive) to `toSha`, in GitHub's "list pull request files"
   * shape, with `patch` hunks. Throws CommitNotFoundError when the host does not know a commit of
   * the range.
   */
  changedFiles(number: number, fromSha: string, toSha: string): Promise<PullRequestFile[]>;
  /** A file's whole text at a commit; null when it does not exist there or is binary. */
  fileContent(path: string, sha: string): Promise<string | null>;
  /**
   * The paths of the files directly in `directory` at a commit (not those of its subfolders); empty
   * when it does not exist there. Team rules are listed with it (`.argus/rules/` at the base);
   * a host without it reviews with the built-in rules alone.
   */
  listFiles?(directory: string, sha: string): Promise<string[]>;
  /**
   * The findings already posted on this pull request, read back from the host by their markers
   * (`readMarkers` keeps only those the engine signed for this pull request), each with its
   * reactions (docs/review-engine.md, "Feedback").
   */
  postedFindings(number: number, readMarkers: FingerprintReader): Promise<PostedFindings>;
  postReview(number: number, review: ReviewToPost): Promise<PostedReview>;
  /**
   * Resolves the engine's own line comments that carry one of `fingerprints` in their signed marker
   * (GitHub: the review thread; Azure DevOps: the thread's status "fixed"; the sandbox: the
   * comment), as a reviewer resolves a thread once the code is fixed (docs/review-engine.md,
   * "Resolving fixed findings"). Leaves resolved ones alone; answers how many it resolved now. A
   * host without it leaves every comment open.
   */
  resolveComments?(
    number: number,
    fingerprints: ReadonlySet<string>,
    readMarkers: FingerprintReader,
  ): Promise<number>;
  /** A plain comment on the pull request (answers to `help`, `pause`, `resume`). */
  comment(number: number, body: string): Promise<void>;
  /**
   * Shows the review on the pull request's head commit while it runs (GitHub: a check run in
   * progress; Azure DevOps: a pending pull request status; the sandbox: its page) and answers the
   * check's id, which `finishCheck` concludes (docs/review-engine.md, "The review's check"). A host
   * without checks leaves both out.
   */
  startCheck?(number: number, check: CheckStart): Promise<string>;
  finishCheck?(number: number, id: string, end: CheckEnd): Promise<void>;
}
