import { describe, expect, it } from "vitest";
import { pullRequestNumberOf, runMatchesSearch } from "./review-search.ts";

describe("searching review runs", () => {
  it("reads a pull request number with or without #, and nothing else as one", () => {
    expect(pullRequestNumberOf("42")).toBe(42);
    expect(pullRequestNumberOf(" #7 ")).toBe(7);
    for (const text of ["", "#", "4 2", "-1", "1.5", "##2", "1234567890"]) {
      expect(pullRequestNumberOf(text), text).toBeUndefined();
    }
  });

  it("matches a run by its pull request's number or a part of its title in any case", () => {
    const run = { pullRequest: 12, pullRequestTitle: "Fix the Cart total" };
    expect(runMatchesSearch(run, "")).toBe(true);
    expect(runMatchesSearch(run, "#12")).toBe(true);
    expect(runMatchesSearch(run, "12")).toBe(true);
    expect(runMatchesSearch(run, " cart TOTAL ")).toBe(true);
    expect(runMatchesSearch(run, "#1")).toBe(false);
    expect(runMatchesSearch(run, "refund")).toBe(false);
    expect(runMatchesSearch({ pullRequest: 3, pullRequestTitle: null }, "cart")).toBe(false);
    // A number in the title counts as a part of it.
    expect(runMatchesSearch({ pullRequest: 3, pullRequestTitle: "Bump to 12.1" }, "12")).toBe(true);
  });
});
