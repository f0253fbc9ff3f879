/**
 * A pull request's diff as GitHub's "Files changed" shows it, with each review comment under the
 * line it is on (comments on an older commit are listed as outdated, as GitHub does).
 */
import { MessageSquare } from "lucide-react";
import { Fragment } from "react";
import type { SandboxDiffFile, SandboxDiffLine } from "../../../shared/contract/sandbox.ts";
import { Card } from "../../components/ui";
import { MarkdownBody } from "../reviews/markdown-body";
import type { RenderedComment, RenderedReview } from "../reviews/rendered-reviews.server";
import { CommentReactions } from "./comment-reactions";

const LINE_TONES: Record<SandboxDiffLine["kind"], string> = {
  add: "bg-success-soft",
  del: "bg-danger-soft",
  context: "",
};
const PREFIX: Record<SandboxDiffLine["kind"], string> = { add: "+", del: "-", context: " " };
const KIND_NAMES: Record<SandboxDiffLine["kind"], string> = {
  add: "Added",
  del: "Removed",
  context: "Unchanged",
};

export function FilesChanged({
  files,
  reviews,
  headSha,
}: {
  files: SandboxDiffFile[];
  reviews: RenderedReview[];
  headSha: string;
}) {
  const current = reviews
    .flatMap((review) => review.comments)
    .filter((comment) => comment.commitId === headSha);
  return (
    <div className="space-y-4">
      {files.map((file) => (
        <FileDiff
          key={file.path}
          file={file}
          comments={current.filter((comment) => comment.path === file.path)}
        />
      ))}
    </div>
  );
}

function FileDiff({ file, comments }: { file: SandboxDiffFile; comments: RenderedComment[] }) {
  const headingId = `file-${file.path.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  return (
    <Card as="section" aria-labelledby={headingId} className="overflow-hidden">
      <h3
        id={headingId}
        className="flex flex-wrap items-baseline gap-2 border-border border-b bg-surface-muted/60 px-4 py-2.5 text-sm"
      >
        <span className="font-medium font-mono text-fg">{file.path}</span>
        <span className="text-fg-muted text-xs">
          {file.status} · <span className="text-success-text">+{file.additions}</span>{" "}
          <span className="text-danger-text">−{file.deletions}</span>
        </span>
      </h3>
      {/* A size container, so that a review comment can be as wide as the visible part of the diff. */}
      <div className="@container overflow-x-auto">
        <table className="w-full border-collapse font-mono text-xs">
          <caption className="sr-only">Changes to {file.path}</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Old line</th>
              <th scope="col">New line</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {file.hunks.map((hunk) => (
              <Fragment key={hunk.header}>
                <tr className="bg-accent-soft/60 text-fg-muted">
                  <td colSpan={3} className="px-3 py-1">
                    {hunk.header}
                  </td>
                </tr>
                {hunk.lines.map((line) => (
                  <Fragment key={`${line.oldLine}:${line.newLine}`}>
                    <tr className={LINE_TONES[line.kind]}>
                      <td className="w-12 select-none px-2 text-right text-fg-subtle">
                        {line.oldLine ?? ""}
                      </td>
                      <td className="w-12 select-none px-2 text-right text-fg-subtle">
                        {line.newLine ?? ""}
                      </td>
                      <td className="whitespace-pre px-2 text-fg">
                        <span className="sr-only">{KIND_NAMES[line.kind]}: </span>
                        <span aria-hidden="true">{PREFIX[line.kind]}</span>
                        {line.text}
                      </td>
                    </tr>
                    {line.newLine === null
                      ? null
                      : comments
                          .filter((comment) => comment.line === line.newLine)
                          .map((comment) => <InlineComment key={comment.id} comment={comment} />)}
                  </Fragment>
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function InlineComment({ comment }: { comment: RenderedComment }) {
  return (
    <tr>
      <td colSpan={3} className="border-border border-y bg-surface px-4 py-3 font-sans">
        {/* Held at the left edge of the visible diff and as wide as it, as GitHub does: a long
            line scrolls the diff sideways, and the comment must not be read by scrolling too. */}
        <article
          aria-label={`Review comment on ${comment.path} line ${comment.line}`}
          className="sticky left-4 w-[calc(100cqw-2rem)] space-y-1 rounded-md border border-border bg-surface p-3 shadow-card"
        >
          <p className="flex items-center gap-1.5 text-fg-muted text-xs">
            <MessageSquare aria-hidden="true" className="size-3.5" />
            Review comment · line {comment.line}
          </p>
          <MarkdownBody html={comment.bodyHtml} />
          <CommentReactions commentId={comment.id} reactions={comment.reactions} />
        </article>
      </td>
    </tr>
  );
}
