/**
 * The rules of a pattern-list setting (`ignored_branches`, `ignored_paths`), written once: the
 * backend refuses a save that breaks them with the same message the settings screen shows before
 * sending it. Plain functions, no schemas, so the settings page can use them without loading zod.
 */

/** The most patterns one setting holds. */
export const PATTERNS_MAX = 50;
/** The longest pattern, in characters. */
export const PATTERN_LENGTH_MAX = 200;

/** The patterns of a textarea, one a line: each trimmed, blank lines and repeats dropped. */
export function patternsFromText(text: string): string[] {
  return normalizePatterns(text.split(/\r?\n/));
}

/** Patterns as they are kept: trimmed, without blanks and repeats, in their order. */
export function normalizePatterns(patterns: readonly string[]): string[] {
  return [...new Set(patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== ""))];
}

/** The brackets a glob writer pairs: the matcher takes them literally, so an unpaired one is a typo. */
const PAIRS = { "[": "]", "{": "}" } as const;
const CLOSERS: Record<string, keyof typeof PAIRS> = { "]": "[", "}": "{" };

/**
 * Why `pattern` is not a valid glob, or null. Only `*`, `?` and `**` are special to the matcher
 * (docs/product.md#settings); a `[` or `{` left open (or a `]`, `}` never opened) would be taken
 * literally and silently match nothing the writer meant, so it is refused. Paired brackets stay
 * literal, as paths such as `pages/[id].tsx` need.
 */
function globProblem(pattern: string): string | null {
  const open: (keyof typeof PAIRS)[] = [];
  for (const char of pattern) {
    if (char === "[" || char === "{") open.push(char);
    const opener = CLOSERS[char];
    if (opener === undefined) continue;
    if (open.at(-1) !== opener) return `"${char}" closes nothing`;
    open.pop();
  }
  const unclosed = open.at(-1);
  return unclosed ? `"${unclosed}" is never closed by "${PAIRS[unclosed]}"` : null;
}

/** What is wrong with a list of (normalised) patterns for the setting `label`, or null. */
export function patternsProblem(label: string, patterns: readonly string[]): string | null {
  if (patterns.length > PATTERNS_MAX) {
    return `${label}: at most ${PATTERNS_MAX} patterns, one per line (this list has ${patterns.length})`;
  }
  const long = patterns.find((pattern) => pattern.length > PATTERN_LENGTH_MAX);
  if (long !== undefined) {
    return `${label}: a pattern is at most ${PATTERN_LENGTH_MAX} characters ("${long.slice(0, 20)}…" has ${long.length})`;
  }
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) return `${label}: "${pattern}" is not a valid glob pattern: ${problem}`;
  }
  return null;
}
