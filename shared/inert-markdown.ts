/**
 * Text the engine did not write (a model's findings, file paths, anything else from a pull request)
 * made inert for the Markdown of GitHub and Azure DevOps before it is posted (decision 029), and
 * before the run page renders a finding (decision 036), so both show the same thing:
 * nothing in it may notify someone, load something, link somewhere, hide text or pass for the
 * engine's own markers. What is left reads as the author wrote it:
 *
 * - HTML comments and engine markers are removed, with zero-width and other invisible characters
 *   (so an obfuscated comment or mention is seen for what it is); white space becomes one line;
 * - mentions (`@user`, `@org/team`, Azure DevOps' `@<id>`), references (`#12`, `owner/repo#12`,
 *   `GH-12`, Azure DevOps' `!12`), URLs (`https://…`, `www.…`, `mailto:` and the like), e-mail
 *   addresses, raw HTML and autolinks (`<…>`) and the author's own code spans become inline code,
 *   which code hosts neither link, nor notify from, nor render;
 * - Markdown links and images become their text followed by the target as inline code
 *   (`text (\`url\`)`, `alt (image \`url\`)`): nothing is fetched or clickable;
 * - what could still make a link, image, tag, entity or formula of what is left (`[`, `]`, `<`, `&`
 *   before an entity, `$`, backslashes and stray backticks) is backslash-escaped, and so is a
 *   heading, quote or list marker at the start. Emphasis is left as it is: it hides nothing, and
 *   `ghp_****` or `snake_case` read better without backslashes where the Markdown is shown raw.
 */

/**
 * What is left of an engine marker (`<!-- argus:fp:… -->`, backend/review/markers.ts) without its
 * comment's brackets, in any case: never posted from text. Fixed, not the product name.
 */
const MARKER_TEXT = /argus:fp:[0-9a-f:]*/gi;

/** Text from elsewhere with whatever looks like a marker taken out: only the engine writes markers. */
const withoutMarkerText = (text: string) => text.replace(MARKER_TEXT, "");

/** Invisible format and control characters (zero-width, bidirectional controls), not white space. */
const INVISIBLE = /(?![\t\n\v\f\r])[\p{Cf}\p{Cc}]/gu;
/** An HTML comment, or an unclosed one to the end: GitHub hides it, and everything it swallows. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

const TOKEN = new RegExp(
  [
    // The author's code span: a backtick run closed by a run of the same length.
    String.raw`(?<fence>\x60+)(?!\x60)(?<code>.+?)(?<!\x60)\k<fence>(?!\x60)`,
    // Raw HTML, comments' leftovers and autolinks: <img …>, </b>, <!x>, <?x?>, <https://…>.
    "(?<html><[a-z/!?][^<>]*>)",
    String.raw`(?<image>!?)\[(?<label>[^[\]]*)\]\((?<target>[^()\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`,
    String.raw`(?<url>(?:[a-z][\w+.-]*:\/\/|www\.|(?:mailto|javascript|vbscript|data|xmpp|tel):)[^\s<>]+)`,
    String.raw`(?<email>[\w.%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)`,
    String.raw`(?<mention>@(?:<[^<>]*>|[\w-]+(?:\/[\w.-]+)?))`,
    String.raw`(?<reference>(?:[\w.-]+\/[\w.-]+)?#\d+|\bgh-\d+|!\d+)`,
  ].join("|"),
  "giu",
);
/** What still has a meaning in a line once the tokens above are code: escaped with a backslash. */
const SPECIAL = /[\\`[\]<$]|&(?=#?[a-z0-9]+;)/gi;
/** A heading, quote or list at the start of a paragraph (where a comment's message begins). */
const BLOCK_START = /^([-+*#>])|^(\d+)([.)])/;
/** Punctuation that ends a sentence rather than a URL, as GitHub reads a bare URL. */
const URL_TAIL = /[.,:;!?'")\]]+$/;

/** Invisible characters, HTML comments and marker text removed; white space made one line. */
function visibleText(text: string): string {
  let current = text.replace(INVISIBLE, "");
  // Removing one comment can join the halves of another (`<!-<!-- -->- …`): until nothing changes.
  for (;;) {
    const next = withoutMarkerText(current.replace(HTML_COMMENT, ""));
    if (next === current) return current.replace(/\s+/g, " ").trim();
    current = next;
  }
}

/** Text as inline code that nothing in it can close: a fence longer than any backtick run in it. */
export function inlineCode(text: string): string {
  const content = visibleText(text);
  if (!content) return "";
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // A space keeps a backtick at either end from joining the fence; Markdown drops it again.
  const pad = /^[` ]|[` ]$/.test(content) ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

const escaped = (text: string) => text.replace(SPECIAL, "\\$&");

function rendered(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const groups = match.groups ?? {};
    out += escaped(text.slice(last, match.index));
    last = match.index + match[0].length;
    if (groups.code !== undefined) {
      out += inlineCode(groups.code);
    } else if (groups.target !== undefined) {
      const label = rendered(groups.label ?? "");
      const target = inlineCode(groups.target);
      out += groups.image
        ? `${label ? `${label} ` : ""}(image ${target})`
        : label
          ? `${label} (${target})`
          : target;
    } else if (groups.url !== undefined) {
      const tail = URL_TAIL.exec(groups.url)?.[0] ?? "";
      out += inlineCode(groups.url.slice(0, groups.url.length - tail.length)) + escaped(tail);
    } else {
      out += inlineCode(match[0]);
    }
  }
  return out + escaped(text.slice(last));
}

/** `text` as inert Markdown on one line (see above). */
export function inertMarkdown(text: string): string {
  return rendered(visibleText(text)).replace(BLOCK_START, (_, marker, number, mark) =>
    marker ? `\\${marker}` : `${number}\\${mark}`,
  );
}
