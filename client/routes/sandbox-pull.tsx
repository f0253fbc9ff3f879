import { CircleCheck, GitPullRequest, MessageSquareText, SearchX } from "lucide-react";
import { useEffect } from "react";
import { href, Link, useRevalidator } from "react-router";
import { sandboxPullsHref } from "../../shared/contract/sandbox.ts";
import { Settled } from "../components/streamed";
import { BackLink, Badge, Card, EmptyState, Spinner } from "../components/ui";
import { MarkdownBody } from "../features/reviews/markdown-body";
import {
  type RenderedPull,
  type RenderedReview,
  renderedPull,
} from "../features/reviews/rendered-reviews.server";
import { loadSandboxPull } from "../features/reviews/reviews.server";
import { isUnderWay, RunStatusBadge } from "../features/reviews/run-status";
import { Checks } from "../features/sandbox/checks";
import { CommentForm } from "../features/sandbox/comment-form";
import { CommentReactions } from "../features/sandbox/comment-reactions";
import { FilesChanged } from "../features/sandbox/files-changed";
import { PushCommit } from "../features/sandbox/push-commit";
import { SandboxBadge } from "../features/sandbox/sandbox-badge";
import { backendFor } from "../lib/backend.server";
import { formatDateTime } from "../lib/formats";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/sandbox-pull";

export const handle: RouteHandle = { title: "Sandbox pull request" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Sandbox pull request", productNameOf(matches)) }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { pull: await renderedPull(await loadSandboxPull(api, params.pullId)) };
}

/** How often the page reloads while the pull request's review is queued or running. */
export const REVIEW_POLL_MS = 1500;

/** docs/product.md#sandboxpullspullid: the sandbox's pull request page, with the review as posted. */
export default function SandboxPull({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <Settled
        result={loaderData.pull}
        errorDescription="The pull request could not be fetched. Check your connection and try again."
      >
        {(pull) =>
          pull ? (
            <PullRequest pull={pull} />
          ) : (
            <EmptyState
              icon={<SearchX />}
              titleAs="h2"
              title="Pull request not found"
              description="There is no sandbox pull request by that id in your organization."
            />
          )
        }
      </Settled>
    </div>
  );
}

function PullRequest({ pull }: { pull: RenderedPull }) {
  const reviewing = pull.latestRun !== null && isUnderWay(pull.latestRun.status);
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!reviewing) return;
    const timer = setInterval(() => void revalidate(), REVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, [reviewing, revalidate]);

  return (
    <>
      <BackLink to={sandboxPullsHref(pull.projectId)}>Pull requests of {pull.repository}</BackLink>
      <Card as="section" aria-labelledby="pull-title" className="space-y-2 px-6 py-5">
        <div className="flex flex-wrap items-center gap-2">
          <SandboxBadge />
          <span className="font-mono text-fg-muted text-sm">{pull.repository}</span>
        </div>
        <h2 id="pull-title" className="font-semibold text-fg text-xl tracking-tight">
          {pull.title} <span className="font-normal text-fg-muted">#{pull.number}</span>
        </h2>
        <p className="flex flex-wrap items-center gap-1.5 text-fg-muted text-sm">
          <GitPullRequest aria-hidden="true" className="size-4" />
          {pull.author} wants to merge <code className="font-mono">{pull.headRef}</code> into{" "}
          <code className="font-mono">{pull.baseRef}</code>
        </p>
        <ReviewState pull={pull} reviewing={reviewing} />
      </Card>
      <Conversation reviews={pull.reviews} headSha={pull.headSha} />
      <Checks checks={pull.checks} />
      <CommentForm pullId={pull.id} />
      <section aria-labelledby="files-title" className="space-y-3">
        <h2 id="files-title" className="font-semibold text-base text-fg">
          Files changed <span className="font-normal text-fg-muted">({pull.files.length})</span>
        </h2>
        {pull.files.length === 0 ? (
          <p className="text-fg-muted text-sm">This pull request changes nothing.</p>
        ) : (
          <FilesChanged files={pull.files} reviews={pull.reviews} headSha={pull.headSha} />
        )}
      </section>
      {/* A new head is a new form: it starts from the new text. */}
      <PushCommit key={pull.headSha} pullId={pull.id} files={pull.files} />
    </>
  );
}

function ReviewState({ pull, reviewing }: { pull: RenderedPull; reviewing: boolean }) {
  if (!pull.latestRun) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" role="status">
      {reviewing ? <Spinner size="sm" /> : null}
      <span className="text-fg-muted">Review:</span>
      <RunStatusBadge status={pull.latestRun.status} />
      <Link
        to={href("/reviews/:runId", { runId: pull.latestRun.id })}
        className="focus-ring rounded-sm text-accent-text hover:underline"
      >
        See its decision log
      </Link>
    </p>
  );
}

function Conversation({ reviews, headSha }: { reviews: RenderedReview[]; headSha: string }) {
  return (
    <section aria-labelledby="conversation-title" className="space-y-3">
      <h2 id="conversation-title" className="font-semibold text-base text-fg">
        Conversation
      </h2>
      {reviews.length === 0 ? (
        <p className="text-fg-muted text-sm">Nothing posted yet.</p>
      ) : (
        <ol className="space-y-3">
          {reviews.map((review) => (
            <li key={review.id}>
              <Card
                as="article"
                aria-label={
                  review.kind === "review"
                    ? "Review"
                    : review.author
                      ? `Comment by ${review.author}`
                      : "Comment"
                }
                className="space-y-2 px-5 py-4"
              >
                <p className="flex items-center gap-1.5 text-fg-muted text-xs">
                  <MessageSquareText aria-hidden="true" className="size-3.5" />
                  {review.author
                    ? `${review.author} commented`
                    : review.kind === "review"
                      ? "Reviewed"
                      : "Commented"}{" "}
                  · {formatDateTime(review.createdAt)}
                  {review.commitId ? (
                    <>
                      {" "}
                      · commit <code className="font-mono">{review.commitId.slice(0, 7)}</code>
                    </>
                  ) : null}
                </p>
                <MarkdownBody html={review.bodyHtml} />
                <Outdated comments={review.comments.filter((comment) => comment.commitId !== headSha)} />
              </Card>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Outdated({ comments }: { comments: RenderedReview["comments"] }) {
  if (comments.length === 0) return null;
  return (
    <ul aria-label="Outdated comments" className="space-y-1 border-border border-t pt-2 text-sm">
      {comments.map((comment) => (
        <li key={comment.id} className="space-y-1 text-fg-muted">
          <p className="flex flex-wrap items-center gap-1.5">
            <span className="font-mono">
              {comment.path}:{comment.line}
            </span>{" "}
            (outdated)
            {comment.resolved ? (
              <Badge tone="success" icon={<CircleCheck aria-hidden="true" />} title="A later commit fixed it">
                Resolved
              </Badge>
            ) : null}
          </p>
          <MarkdownBody html={comment.bodyHtml} />
          <CommentReactions commentId={comment.id} reactions={comment.reactions} />
        </li>
      ))}
    </ul>
  );
}
