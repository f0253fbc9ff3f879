import { describe, expect, it } from "vitest";
import { patternsProblem } from "./settings.ts";

describe("patternsProblem", () => {
  it("refuses a glob with a bracket left open or never opened, naming the pattern", () => {
    expect(patternsProblem("Ignored paths", ["docs/**", "[invalid"])).toBe(
      'Ignored paths: "[invalid" is not a valid glob pattern: "[" is never closed by "]"',
    );
    expect(patternsProblem("Ignored paths", ["src/{a,b"])).toBe(
      'Ignored paths: "src/{a,b" is not a valid glob pattern: "{" is never closed by "}"',
    );
    expect(patternsProblem("Ignored branches", ["release]"])).toBe(
      'Ignored branches: "release]" is not a valid glob pattern: "]" closes nothing',
    );
    expect(patternsProblem("Ignored paths", ["a[b{c]d}"])).toContain('"]" closes nothing');
  });

  it("takes the globs the matcher knows and paired brackets in paths", () => {
    expect(
      patternsProblem("Ignored paths", ["docs/**", "*.snap", "src/?/x", "pages/[id].tsx", "{a}"]),
    ).toBeNull();
  });
});
