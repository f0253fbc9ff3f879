import { describe, expect, it } from "vitest";
import { markdownHtml, untrustedMarkdownHtml } from "./markdown.server";

/** The HTML as the browser would build it. */
const parsed = (html: string) => {
  const host = document.createElement("div");
  host.innerHTML = html;
  return host;
};

/** Every element carrying an event handler attribute (`onerror`, `onclick`, ...). */
const withHandlers = (host: HTMLElement) =>
  [...host.querySelectorAll("*")].filter((node) =>
    [...node.attributes].some((attribute) => attribute.name.toLowerCase().startsWith("on")),
  );

describe("markdownHtml", () => {
  it("renders bold, code spans, links and fenced code as GitHub does", () => {
    const host = parsed(
      markdownHtml(
        "**Argus** reviewed `src/config.ts`: see [CWE-798](https://cwe.mitre.org/data/definitions/798.html).\n\n```ts\nconst a = 1;\n```",
      ),
    );
    expect(host.querySelector("strong")?.textContent).toBe("Argus");
    expect(host.querySelector("p code")?.textContent).toBe("src/config.ts");
    const link = host.querySelector("a");
    expect(link?.getAttribute("href")).toBe("https://cwe.mitre.org/data/definitions/798.html");
    expect(link?.getAttribute("rel")).toBe("nofollow noopener noreferrer");
    expect(host.querySelector("pre code.language-ts")?.textContent).toBe("const a = 1;\n");
    expect(host.textContent).not.toContain("**");
  });

  it("shows raw HTML as text: no element, no event handler, no script", () => {
    const host = parsed(
      markdownHtml(
        'Look <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n<div onclick=alert(3)>hi</div>',
      ),
    );
    expect(host.querySelector("img, script, div")).toBeNull();
    expect(withHandlers(host)).toEqual([]);
    expect(host.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it("drops script links and loads no image", () => {
    const host = parsed(
      markdownHtml(
        "[click](javascript:alert(1)) ![pixel](https://tracker.example/p.png) [b][ref]\n\n[ref]: vbscript:x",
      ),
    );
    expect(host.querySelector("img")).toBeNull();
    // Sanitising keeps a script link's text, without its target.
    const hrefs = [...host.querySelectorAll("a[href]")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["https://tracker.example/p.png"]);
    expect(host.textContent).toContain("click");
    expect(host.textContent).toContain("Image: pixel");
  });

  it("draws a leading severity as a badge, in a paragraph and in a list", () => {
    const host = parsed(
      markdownHtml(
        "**Critical** · `secrets/github`\n\nA token is committed.\n\n- **Major** `a.ts:1` `x`: y\n- **Argus** is not a severity",
      ),
    );
    const badges = [...host.querySelectorAll("span.rounded-full")];
    expect(badges.map((badge) => badge.textContent)).toEqual(["Critical", "Major"]);
    expect(badges[0]?.className).toContain("bg-danger-soft");
    expect(badges[1]?.className).toContain("bg-warning-soft");
    expect(host.querySelector("li:last-child strong")?.textContent).toBe("Argus");
  });

  it("shows a suggestion fence as a suggested change", () => {
    const host = parsed(
      markdownHtml("Use the environment:\n\n```suggestion\n  token: process.env.TOKEN,\n```"),
    );
    const figure = host.querySelector("figure");
    expect(figure?.querySelector("figcaption")?.textContent).toBe("Suggested change");
    expect(figure?.querySelector("pre code")?.textContent).toBe("  token: process.env.TOKEN,\n");
  });
});

describe("untrustedMarkdownHtml", () => {
  it("renders a finding as it is posted: code and bold kept, HTML, links and mentions inert", () => {
    const host = parsed(
      untrustedMarkdownHtml(
        "Use `execFile`, **never** a shell <img src=x onerror=alert(1)> [docs](https://phish.example) @octocat",
      ),
    );
    expect(host.querySelector("strong")?.textContent).toBe("never");
    const code = [...host.querySelectorAll("code")].map((node) => node.textContent);
    expect(code).toEqual(["execFile", "<img src=x onerror=alert(1)>", "https://phish.example", "@octocat"]);
    expect(host.querySelector("img, a")).toBeNull();
    expect(withHandlers(host)).toEqual([]);
  });
});
