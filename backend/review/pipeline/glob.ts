// Glob patterns of the ignored_branches and ignored_paths settings: `*` is any run of characters
// within one path segment, `?` one such character, `**` as a whole segment any number of segments
// (`docs/**`, `**/fixtures/*.json`, `src/**/generated/*`), everything else itself. The patterns are
// users': they are matched by walking the pattern and the text together (at most pattern length ×
// text length steps), never turned into a regular expression that could backtrack for ever.

type Token =
  | { kind: "char"; char: string }
  | { kind: "one" }
  | { kind: "star" }
  // `**`; followed by a slash it may also match nothing at all, slash included (`skip` jumps past both).
  | { kind: "globstar"; skip?: number };

function tokensOf(text: string): Token[] {
  // By code point, as the text is read: a character outside the BMP is one `?`.
  const pattern = [...text];
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? "";
    if (char === "?") tokens.push({ kind: "one" });
    else if (char !== "*") tokens.push({ kind: "char", char });
    else if (pattern[i + 1] !== "*") tokens.push({ kind: "star" });
    else {
      let end = i;
      while (pattern[end + 1] === "*") end++;
      const wholeSegment =
        (i === 0 || pattern[i - 1] === "/") && (end + 1 === pattern.length || pattern[end + 1] === "/");
      if (!wholeSegment) tokens.push({ kind: "star" });
      else if (pattern[end + 1] === "/") {
        tokens.push({ kind: "globstar", skip: tokens.length + 2 }, { kind: "char", char: "/" });
        end++;
      } else tokens.push({ kind: "globstar" });
      i = end;
    }
  }
  return tokens;
}

/** The states reachable from `states` without reading a character. */
function closure(tokens: readonly Token[], states: Set<number>): Set<number> {
  const stack = [...states];
  while (stack.length) {
    const state = stack.pop() ?? 0;
    const token = tokens[state];
    const next: number[] = [];
    if (token?.kind === "star" || token?.kind === "globstar") next.push(state + 1);
    if (token?.kind === "globstar" && token.skip !== undefined) next.push(token.skip);
    for (const target of next) {
      if (!states.has(target)) {
        states.add(target);
        stack.push(target);
      }
    }
  }
  return states;
}

/** A matcher for `pattern` that tests a whole text (a branch name, a path). */
export function globMatcher(pattern: string): (text: string) => boolean {
  const tokens = tokensOf(pattern);
  return (text) => {
    let states = closure(tokens, new Set([0]));
    for (const char of text) {
      const next = new Set<number>();
      for (const state of states) {
        const token = tokens[state];
        if (!token) continue;
        if (token.kind === "char" ? token.char === char : token.kind === "globstar" || char !== "/") {
          next.add(token.kind === "star" || token.kind === "globstar" ? state : state + 1);
        }
      }
      if (next.size === 0) return false;
      states = closure(tokens, next);
    }
    return states.has(tokens.length);
  };
}

/**
 * The first of `patterns` that `branch` matches, whole (`release/*` matches `release/1.2`, not
 * `release/1.2/hotfix`; `release/**` matches both).
 */
export function matchingBranchPattern(patterns: readonly string[], branch: string): string | undefined {
  return patterns.find((pattern) => globMatcher(pattern)(branch));
}

/**
 * A test of repository paths against path patterns, as in .gitignore: a pattern without a slash
 * matches a file's name in any directory (`*.snap`); one with a slash matches the path from the
 * repository's root (a leading slash is allowed), and one ending in a slash everything under it.
 * Answers the first matching pattern.
 */
export function pathPatterns(patterns: readonly string[]): (path: string) => string | undefined {
  const matchers = patterns.map((pattern) => {
    const anchored = pattern.replace(/^\//, "").replace(/\/$/, "/**");
    const test = globMatcher(anchored);
    const byName = !anchored.includes("/");
    return {
      pattern,
      matches: (path: string) => test(byName ? path.slice(path.lastIndexOf("/") + 1) : path),
    };
  });
  return (path) => matchers.find((matcher) => matcher.matches(path))?.pattern;
}
