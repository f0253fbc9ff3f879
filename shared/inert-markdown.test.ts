import { describe, expect, it } from "vitest";
import { inertMarkdown, inlineCode } from "./inert-markdown.ts";

const FINGERPRINT = "ab".repeat(32);

/**
 * What CommonMark reads as text outside inline code, with backslash-escaped characters taken out:
 * the only place a link, image, tag, entity, mention or reference could form. Written from the
 * spec (a backtick run is closed by the next run of the same length), not from the sanitiser.
 */
function unescapedProse(markdown: string): string {
  let prose = "";
  let at = 0;
  while (at < markdown.length) {
    const char = markdown[at] as string;
    if (char === "\\" && /[!-/:-@[-`{-~]/.test(markdown[at + 1] ?? "")) {
      prose += " ";
      at += 2;
    } else if (char === "`") {
      const run = /^`+/.exec(markdown.slice(at))?.[0] ?? "`";
      const close = new RegExp(`(?<!\`)${run}(?!\`)`).exec(markdown.slice(at + run.length));
      if (!close) {
        prose += run;
        at += run.length;
      } else {
        prose += " ";
        at += run.length + close.index + run.length;
      }
    } else {
      prose += char;
      at += 1;
    }
  }
  return prose;
}

/** Whatever would make a code host link, load, render, notify or hide something. */
const LIVE = [
  /</,
  /\[|\]/,
  /&#?[a-z0-9]+;/i,
  /@\w/,
  /#\d/,
  /!\d/,
  /gh-\d/i,
  /[a-z]+:\/\//i,
  /www\./i,
  /(mailto|javascript|data):/i,
  /argus:fp/i,
  /\n/,
  /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/,
];

const HOSTILE: Array<[string, string]> = [
  ["an engine marker", `Fine <!-- argus:fp:${FINGERPRINT} -->`],
  ["a marker nested in a comment", `a <!-<!-- x -->- argus:fp:${FINGERPRINT} --> b`],
  ["a marker in upper case without its comment", `a ARGUS:FP:${FINGERPRINT.toUpperCase()}:00 b`],
  ["an unclosed comment", "shown <!-- hidden to the end"],
  ["a comment split by a zero-width space", "<!\u200b-- hidden -->shown"],
  ["a tracking image", "![pixel](https://tracker.example/p.png?pr=7)"],
  ["an image inside a link", "[![x](https://i.example/a.png)](https://phish.example)"],
  ["a phishing link with a title", '[Reset your token](https://phish.example/login "GitHub")'],
  ["a reference link and its definition", "[Sign in][1]\n\n[1]: https://phish.example/login"],
  ["an autolink", "<https://phish.example>"],
  ["bare URLs", "see https://phish.example/a, www.phish.example and mailto:x@phish.example."],
  ["a javascript URL", "[x](javascript:alert(1))"],
  ["an e-mail address", "write to admin@phish.example"],
  ["mentions", "cc @octocat, @acme/security and @<6F3B1A2C-0000-0000-0000-000000000001>"],
  ["a mention after a zero-width joiner", "@\u200doctocat"],
  ["a mention after a backslash", "\\@octocat"],
  ["references", "fixes #12, acme/web#3, GH-4 and !5"],
  ["raw HTML", '<img src="https://tracker.example/p.png"><details><summary>x</summary>y</details>'],
  ["HTML in upper case", '<IMG SRC="https://tracker.example/p.png">'],
  ["entities", "&#64;octocat &lt;img src=x&gt; &#x3C;script&#x3E; &commat;octocat"],
  ["block Markdown", "# Title\n\n- item\n> quote\n\n| a | b |\n|---|---|"],
  ["a code span closed early", "`a`` @octocat ``b` <img src=x>"],
  ["bidirectional controls", "\u202eevil\u202c @octocat"],
];

describe("inertMarkdown", () => {
  it.each(HOSTILE)("leaves nothing live of %s", (_, text) => {
    const out = inertMarkdown(text);
    const prose = unescapedProse(out);
    for (const live of LIVE) expect(prose, `${JSON.stringify(out)} matches ${live}`).not.toMatch(live);
    expect(out).not.toMatch(/argus:fp/i);
    expect(out).not.toContain("<!--");
  });

  it("keeps a plain message as it is, and the author's code spans as code", () => {
    const plain = "SQL injection: the id is pasted into the query; pass it as a parameter (see line 4).";
    expect(inertMarkdown(plain)).toBe(plain);
    expect(inertMarkdown("`debugger` statement: remove it before merging.")).toBe(
      "`debugger` statement: remove it before merging.",
    );
    expect(inertMarkdown("New dependency: `@evil/pkg`.")).toBe("New dependency: `@evil/pkg`.");
  });

  it("shows links and images as their text with the target as inline code", () => {
    expect(inertMarkdown("[Reset your token](https://phish.example/login)")).toBe(
      "Reset your token (`https://phish.example/login`)",
    );
    expect(inertMarkdown("![pixel](https://tracker.example/p.png)")).toBe(
      "pixel (image `https://tracker.example/p.png`)",
    );
    expect(inertMarkdown("![](https://tracker.example/p.png)")).toBe(
      "(image `https://tracker.example/p.png`)",
    );
    expect(inertMarkdown("Go to https://phish.example/login.")).toBe("Go to `https://phish.example/login`.");
  });

  it("turns mentions and references into inline code, which notifies and links nobody", () => {
    expect(inertMarkdown("@octocat and @acme/security: see #12")).toBe(
      "`@octocat` and `@acme/security`: see `#12`",
    );
  });

  it("removes comments and markers, invisible characters and line breaks", () => {
    expect(
      inertMarkdown(`Fine <!-- argus:fp:${FINGERPRINT} --> <!-<!-- x -->- argus:fp:${FINGERPRINT} -->`),
    ).toBe("Fine");
    expect(inertMarkdown("a\u200b\u2060b\nc\r\n\r\nd")).toBe("ab c d");
  });

  it("escapes what could still be a tag, entity, link or formula, and a block marker at the start", () => {
    expect(inertMarkdown("# a < b & c, &amp; [x] $x$ *emphasis* ghp_****")).toBe(
      "\\# a \\< b & c, \\&amp; \\[x\\] \\$x\\$ *emphasis* ghp_****",
    );
    expect(inertMarkdown("- not a list")).toBe("\\- not a list");
    expect(inertMarkdown("> not a quote")).toBe("\\> not a quote");
    expect(inertMarkdown("1. not a list")).toBe("1\\. not a list");
    expect(inertMarkdown('<img src="x">')).toBe('`<img src="x">`');
  });
});

describe("inlineCode", () => {
  it("fences text with more backticks than any run in it, so nothing in it closes the code", () => {
    expect(inlineCode("src/a.ts:4")).toBe("`src/a.ts:4`");
    expect(inlineCode("src/``x``.ts")).toBe("```src/``x``.ts```");
    expect(inlineCode("`x")).toBe("`` `x ``");
    expect(unescapedProse(inlineCode("a`` @octocat ``b"))).toBe(" ");
  });

  it("takes comments, markers and line breaks out of it too", () => {
    expect(inlineCode(`a<!-- argus:fp:${FINGERPRINT} -->\nb`)).toBe("`a b`");
    expect(inlineCode("<!-- only a comment -->")).toBe("");
  });
});
