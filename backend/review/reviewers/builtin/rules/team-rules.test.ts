import { describe, expect, it } from "vitest";
import { memoryReviewHost } from "../../../../../tests/support/memory-review-host.ts";
import { pullRequestInfo } from "../../../../../tests/support/review-pipeline-runs.ts";
import { readTeamRules, TEAM_RULE_FILES_MAX, teamRulesFolder } from "./team-rules.ts";

const BASE = "b".repeat(40);
const rule = (id: string) => `id: ${id}\nlanguage: Go\nmessage: m\nrule:\n  kind: go_statement\n`;

describe("readTeamRules", () => {
  it("reads the .yml and .yaml files of the folder named after the product, at the given commit", async () => {
    const host = memoryReviewHost(pullRequestInfo("x", "c".repeat(40), BASE));
    host.contents.set(`${BASE}:.acme-review/rules/a.yml`, rule("a"));
    host.contents.set(`${BASE}:.acme-review/rules/b.yaml`, rule("b"));
    host.contents.set(`${BASE}:.acme-review/rules/README.md`, "# rules");
    host.contents.set(`${BASE}:.acme-review/rules/nested/c.yml`, rule("c"));
    expect(teamRulesFolder("Acme Review")).toBe(".acme-review/rules");
    const team = await readTeamRules(host, BASE, "Acme Review");
    expect(team?.files).toEqual([".acme-review/rules/a.yml", ".acme-review/rules/b.yaml"]);
    expect(team?.rules.map((loaded) => loaded.ruleId)).toEqual(["team/a", "team/b"]);
    expect(team?.invalid).toEqual([]);
  });

  it("refuses an id a file before already used, and names the files beyond the limit", async () => {
    const host = memoryReviewHost(pullRequestInfo("x", "c".repeat(40), BASE));
    for (let index = 0; index <= TEAM_RULE_FILES_MAX; index++) {
      host.contents.set(
        `${BASE}:.argus/rules/${String(index).padStart(2, "0")}.yml`,
        rule(index === 1 ? "r0" : `r${index}`),
      );
    }
    const team = await readTeamRules(host, BASE, "Argus");
    expect(team?.files).toHaveLength(TEAM_RULE_FILES_MAX);
    expect(team?.invalid).toEqual([
      {
        path: ".argus/rules/01.yml",
        id: "r0",
        error: "a rule with this id is already in .argus/rules/00.yml",
      },
      {
        path: `.argus/rules/${TEAM_RULE_FILES_MAX}.yml`,
        error: `left out: more than ${TEAM_RULE_FILES_MAX} rule files`,
      },
    ]);
  });

  it("answers null for a host that cannot list folders, and no rules for a commit without the folder", async () => {
    const host = memoryReviewHost(pullRequestInfo("x", "c".repeat(40), BASE));
    expect(await readTeamRules(host, BASE, "Argus")).toEqual({ files: [], rules: [], invalid: [] });
    const { listFiles: _unsupported, ...withoutListing } = host;
    expect(await readTeamRules(withoutListing, BASE, "Argus")).toBeNull();
  });
});
