import { describe, expect, it } from "vitest";
import { globMatcher, matchingBranchPattern, pathPatterns } from "./glob.ts";

const matches = (pattern: string, text: string) => globMatcher(pattern)(text);

describe("glob patterns", () => {
  it("matches literals whole, and `?` and `*` within one segment", () => {
    expect(matches("main", "main")).toBe(true);
    expect(matches("main", "main2")).toBe(false);
    expect(matches("main", "mai")).toBe(false);
    expect(matches("v?.0", "v2.0")).toBe(true);
    expect(matches("v?.0", "v/.0")).toBe(false);
    expect(matches("v?.0", "v12.0")).toBe(false);
    expect(matches("?.md", "🚀.md")).toBe(true);
    expect(matches("🚀*", "🚀launch")).toBe(true);
    expect(matches("release/*", "release/1.2")).toBe(true);
    expect(matches("release/*", "release/1.2/hotfix")).toBe(false);
    expect(matches("release/*", "release/")).toBe(true);
    expect(matches("*.min.js", "app.min.js")).toBe(true);
    expect(matches("*.min.js", "lib/app.min.js")).toBe(false);
    // Regular-expression characters are themselves.
    expect(matches("a.b+(c)", "a.b+(c)")).toBe(true);
    expect(matches("a.b", "axb")).toBe(false);
  });

  it("lets `**` as a whole segment cross any number of segments, none included", () => {
    expect(matches("docs/**", "docs/a.md")).toBe(true);
    expect(matches("docs/**", "docs/guide/a.md")).toBe(true);
    expect(matches("docs/**", "src/docs/a.md")).toBe(false);
    expect(matches("**/fixtures/*.json", "fixtures/a.json")).toBe(true);
    expect(matches("**/fixtures/*.json", "test/unit/fixtures/a.json")).toBe(true);
    expect(matches("**/fixtures/*.json", "test/fixtures/deep/a.json")).toBe(false);
    expect(matches("src/**/gen/*", "src/gen/a.ts")).toBe(true);
    expect(matches("src/**/gen/*", "src/a/b/gen/a.ts")).toBe(true);
    expect(matches("src/**/gen/*", "srcx/gen/a.ts")).toBe(false);
    expect(matches("**", "any/thing/at/all")).toBe(true);
    // Not a whole segment: an ordinary `*`.
    expect(matches("a**b", "axxb")).toBe(true);
    expect(matches("a**b", "ax/xb")).toBe(false);
  });

  it("answers quickly for patterns that would make a backtracking matcher crawl", () => {
    const pattern = `${"*a".repeat(40)}b`;
    const started = performance.now();
    expect(matches(pattern, "a".repeat(4000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("matches a branch name whole and answers the first matching pattern", () => {
    expect(matchingBranchPattern(["release/*", "dependabot/**"], "dependabot/npm/zod-4")).toBe(
      "dependabot/**",
    );
    expect(matchingBranchPattern(["release/*"], "feature/release")).toBeUndefined();
    expect(matchingBranchPattern([], "main")).toBeUndefined();
  });

  it("matches paths as .gitignore does: by name without a slash, from the root with one", () => {
    const ignored = pathPatterns(["*.snap", "/docs/", "src/generated/**"]);
    expect(ignored("src/__snapshots__/app.test.ts.snap")).toBe("*.snap");
    expect(ignored("app.snap")).toBe("*.snap");
    expect(ignored("docs/guide/a.md")).toBe("/docs/");
    expect(ignored("src/docs/a.md")).toBeUndefined();
    expect(ignored("src/generated/api/client.ts")).toBe("src/generated/**");
    expect(ignored("lib/src/generated/client.ts")).toBeUndefined();
    expect(ignored("src/app.ts")).toBeUndefined();
  });
});
