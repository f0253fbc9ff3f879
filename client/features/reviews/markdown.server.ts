/**
 * Review Markdown as GitHub shows it, rendered on the server to sanitised HTML (decision 036): the
 * pages get HTML, never a Markdown parser. GitHub Flavored Markdown (remark-gfm), then
 * rehype-sanitize with its default schema (GitHub's): no script, event handler, style or
 * `javascript:` link survives. Stricter than GitHub where it costs a reader nothing:
 *
 * - raw HTML is shown as the text it is, never parsed (GitHub keeps a subset of tags; a review has
 *   no use for them, and text cannot become an element);
 * - images are not loaded (there is no image proxy like GitHub's camo, and a tracking pixel would
 *   see who opens the page): an image is a link to its address, labelled with its text.
 *
 * Then the engine's own conventions are drawn as GitHub draws them: a severity in bold at the start
 * of a paragraph or list item (`**Critical** · …`) becomes a severity badge, and a ```suggestion
 * fence becomes a "Suggested change" block.
 */
import type { Element, ElementContent, Parents, Root } from "hast";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { FINDING_SEVERITY_ORDER, type FindingSeverity } from "../../../shared/contract/reviews.ts";
import { inertMarkdown } from "../../../shared/inert-markdown.ts";
import { badgeClassName } from "../../components/ui/badge";
import { SEVERITY_TONES } from "./run-status";

const SEVERITY_BY_LABEL = new Map<string, FindingSeverity>(
  FINDING_SEVERITY_ORDER.map((severity) => [`${severity[0]?.toUpperCase()}${severity.slice(1)}`, severity]),
);

const element = (tagName: string, className: string, children: ElementContent[]): Element => ({
  type: "element",
  tagName,
  properties: { className: className.split(" ") },
  children,
});
const text = (value: string): ElementContent => ({ type: "text", value });

/** Calls `change` on every element under `node`, children first; its answer replaces the element. */
function mapElements(node: Parents, change: (element: Element) => Element): void {
  node.children = node.children.map((child) => {
    if (child.type !== "element") return child;
    mapElements(child, change);
    return change(child);
  }) as typeof node.children;
}

/** An image becomes a link to where it is, so nothing is fetched when the page opens. */
function imagesAsLinks() {
  return (tree: Root) =>
    mapElements(tree, (node) => {
      if (node.tagName !== "img") return node;
      const { src, alt } = node.properties;
      const label = typeof alt === "string" && alt ? alt : String(src ?? "");
      return {
        type: "element",
        tagName: "a",
        properties: { href: src },
        children: [text(`Image: ${label}`)],
      };
    });
}

function severityBadge(node: Element): Element {
  if (node.tagName !== "p" && node.tagName !== "li") return node;
  const [first] = node.children;
  if (first?.type !== "element" || first.tagName !== "strong" || first.children.length !== 1) return node;
  const [label] = first.children;
  const severity = label?.type === "text" ? SEVERITY_BY_LABEL.get(label.value) : undefined;
  if (!severity || !label) return node;
  node.children[0] = element("span", badgeClassName(SEVERITY_TONES[severity], "align-middle"), [label]);
  return node;
}

function suggestedChange(node: Element): Element {
  const [code] = node.children;
  if (node.tagName !== "pre" || code?.type !== "element" || code.tagName !== "code") return node;
  const classes = code.properties.className;
  if (!Array.isArray(classes) || !classes.includes("language-suggestion")) return node;
  return element("figure", "suggested-change overflow-hidden rounded-md border border-success-border", [
    element(
      "figcaption",
      "border-success-border border-b bg-success-soft px-3 py-1.5 font-medium text-success-text text-xs",
      [text("Suggested change")],
    ),
    { ...node, properties: { className: ["m-0 rounded-none bg-success-soft/40"] } },
  ]);
}

/** External links leave this page without telling the other site where from. */
function externalLink(node: Element): Element {
  if (node.tagName !== "a" || !/^https?:/i.test(String(node.properties.href ?? ""))) return node;
  node.properties.rel = ["nofollow", "noopener", "noreferrer"];
  return node;
}

/** The engine's conventions, drawn after sanitising: what they add is ours, not the text's. */
function reviewParts() {
  return (tree: Root) => mapElements(tree, (node) => externalLink(suggestedChange(severityBadge(node))));
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  // Raw HTML stays the text it was written as.
  .use(remarkRehype, { handlers: { html: (_state, node: { value: string }) => text(node.value) } })
  .use(imagesAsLinks)
  .use(rehypeSanitize)
  .use(reviewParts)
  .use(rehypeStringify)
  .freeze();

/** Markdown (a review's body, a comment) as sanitised HTML. */
export function markdownHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}

/**
 * Text the engine did not write (a finding's message or fix) as the engine posts it, inert
 * (shared/inert-markdown.ts), then rendered: the run page shows what the pull request shows.
 */
export const untrustedMarkdownHtml = (textFromElsewhere: string) =>
  markdownHtml(inertMarkdown(textFromElsewhere));
