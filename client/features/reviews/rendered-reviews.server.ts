/**
 * What the review pages show as Markdown, rendered in their loaders (markdown.server.ts, decision
 * 036): the browser gets sanitised HTML and no Markdown code. A sandbox pull request's posted
 * bodies are rendered as GitHub renders them; a run's finding messages and fixes are first made
 * inert as the engine posts them. A run's decision log goes as its timeline.
 *
 * The renderer and its Markdown libraries load with the first review page, not with the gateway:
 * about 10 MB of memory that a gateway whose users never open one does not hold
 * (docs/performance.md, seventh round).
 */
import type { ReviewRunDetail, RunFinding } from "../../../shared/contract/reviews.ts";
import type {
  SandboxPullDetail,
  SandboxReview,
  SandboxReviewComment,
} from "../../../shared/contract/sandbox.ts";
import type { LoadResult } from "../../lib/load-result.server";
import { type TimelineStep, timelineOf } from "./decision-timeline.server";

export type RenderedComment = Omit<SandboxReviewComment, "body"> & { bodyHtml: string };
export type RenderedReview = Omit<SandboxReview, "body" | "comments"> & {
  bodyHtml: string;
  comments: RenderedComment[];
};
export type RenderedPull = Omit<SandboxPullDetail, "reviews"> & { reviews: RenderedReview[] };

export type RenderedFinding = RunFinding & { messageHtml: string; fixHtml: string | null };
export type RenderedRun = Omit<ReviewRunDetail, "findings" | "decisions"> & {
  findings: RenderedFinding[];
  timeline: TimelineStep[];
};

/** A loaded page's data changed, its other outcomes (error, signed out, not found) left as they are. */
function mapLoaded<T, U>(result: LoadResult<T | null>, change: (data: T) => U): LoadResult<U | null> {
  if (result.status !== "ok") return result;
  return { status: "ok", data: result.data === null ? null : change(result.data) };
}

export async function renderedPull(result: LoadResult<SandboxPullDetail | null>) {
  const { markdownHtml } = await import("./markdown.server");
  return mapLoaded(
    result,
    ({ reviews, ...pull }): RenderedPull => ({
      ...pull,
      reviews: reviews.map(({ body, comments, ...review }) => ({
        ...review,
        bodyHtml: markdownHtml(body),
        comments: comments.map(({ body: commentBody, ...comment }) => ({
          ...comment,
          bodyHtml: markdownHtml(commentBody),
        })),
      })),
    }),
  );
}

export async function renderedRun(result: LoadResult<ReviewRunDetail | null>) {
  const { untrustedMarkdownHtml } = await import("./markdown.server");
  return mapLoaded(
    result,
    ({ decisions, ...run }): RenderedRun => ({
      ...run,
      timeline: timelineOf(decisions),
      findings: run.findings.map((finding) => ({
        ...finding,
        messageHtml: untrustedMarkdownHtml(finding.finding.message),
        fixHtml: finding.finding.fix ? untrustedMarkdownHtml(finding.finding.fix) : null,
      })),
    }),
  );
}
