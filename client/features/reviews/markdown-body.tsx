/**
 * Review Markdown rendered on the server (client/features/reviews/markdown.server.ts): sanitised HTML, styled by
 * the `markdown-body` utility of app.css. Nothing here parses Markdown.
 */
import { cn } from "../../lib/cn";

export function MarkdownBody({ html, className }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by rehype-sanitize on the server (decision 036)
  return <div className={cn("markdown-body", className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
