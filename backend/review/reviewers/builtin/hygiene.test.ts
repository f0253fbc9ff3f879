import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk, runAnalyzer } from "../../../../tests/support/review-files.ts";
import { hygieneAnalyzer } from "./hygiene.ts";

describe("hygieneAnalyzer", () => {
  it("reports a committed .env file as a whole-file finding that quotes none of it", async () => {
    const { findings } = await runAnalyzer(hygieneAnalyzer, [
      addedFile(".env", ["DATABASE_PASSWORD=hunter2"]),
      addedFile("services/api/.env.production", ["API_KEY=abc"]),
      addedFile(".env.example", ["DATABASE_PASSWORD="]),
      addedFile("docs/env.md", ["Copy .env.example to .env"]),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.path, finding.line, finding.quote])).toEqual([
      ["hygiene/env-file", ".env", null, null],
      ["hygiene/env-file", "services/api/.env.production", null, null],
    ]);
  });

  it("reports pull_request_target added to a workflow, not in a comment, another file or an old line", async () => {
    const { findings } = await runAnalyzer(hygieneAnalyzer, [
      changedFile(
        ".github/workflows/ci.yml",
        hunk([" on:", "-  pull_request:", "+  pull_request_target:", "+  # not pull_request_target"]),
      ),
      changedFile(
        ".github/workflows/old.yaml",
        hunk(["   pull_request_target:", "+    branches: [main]"], 2),
      ),
      addedFile("docs/ci.md", ["Avoid pull_request_target."]),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.path, finding.line])).toEqual([
      ["hygiene/pull-request-target", ".github/workflows/ci.yml", 2],
    ]);
  });
});
