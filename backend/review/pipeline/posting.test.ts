import { beforeAll, describe, expect, it } from "vitest";
import type { Finding, FindingSeverity } from "../../../shared/contract/reviews.ts";
import { SETTINGS_CATALOGUE } from "../../../shared/settings-catalogue.ts";
import { addedFile } from "../../../tests/support/review-files.ts";
import { testMarkersOf } from "../../../tests/support/review-markers.ts";
import type { ReviewSettings } from "../review-settings.ts";
import { RightSideIndex } from "./diff.ts";
import { fingerprint } from "./findings.ts";
import type { PullRequestMarkers } from "./markers.ts";
import { commentBody, notPostedFor, planReview, summaryBody, summaryWithMoved } from "./posting.ts";

const STYLE = Object.fromEntries(
  (
    SETTINGS_CATALOGUE.find((category) => category.setting_category === "comment_style")?.default_value ?? []
  ).map((item) => [item.key, item.value]),
) as ReviewSettings["comment_style"];

const index = new RightSideIndex([addedFile("src/a.ts", ["one", "two", "three", "four"])]);

let markers: PullRequestMarkers;
beforeAll(async () => {
  markers = await testMarkersOf("project-a", 7);
});

function finding(line: number, severity: FindingSeverity): Finding {
  return {
    ruleId: `rule/${severity}`,
    severity,
    path: "src/a.ts",
    line,
    quote: `line ${line}`,
    message: "Something.",
    fingerprint: fingerprint(`rule/${severity}`, "src/a.ts", `line ${line}`),
    source: "builtin",
  };
}

/** A major finding of `ruleId` on a line of `path`. */
function ofRule(ruleId: string, line: number, path = "src/a.ts"): Finding {
  return { ...finding(line, "major"), ruleId, path, fingerprint: fingerprint(ruleId, path, `line ${line}`) };
}

/** What the overview says of a review of one file of the whole pull request. */
const facts = {
  productName: "Argus",
  since: null,
  headSha: "1".repeat(40),
  filesReviewed: 1,
  skipped: 0,
  duplicates: 0,
  maxFindings: 10,
};

describe("planReview", () => {
  it("plans the most severe first and posts at most max_findings new findings; duplicates do not count", () => {
    const minor = finding(1, "minor");
    const major = finding(2, "major");
    const critical = finding(3, "critical");
    // Already on the pull request, and below the cut the limit makes: still a duplicate.
    const posted = finding(4, "minor");
    const plan = planReview(
      [minor, major, posted, critical],
      index,
      new Set([posted.fingerprint]),
      {
        ...STYLE,
        severity_threshold: "minor",
        max_findings: 2,
      },
      markers,
    );
    expect(plan.deliveries.map(({ finding, delivery }) => [finding.line, delivery])).toEqual([
      [3, "inline"],
      [2, "inline"],
      [1, "not_posted"],
      [4, "duplicate"],
    ]);
    expect(plan.comments.map((comment) => comment.line)).toEqual([3, 2]);
    // Only the finding left out says why.
    expect(plan.deliveries.map(({ notPostedReason }) => notPostedReason)).toEqual([
      undefined,
      undefined,
      "over_limit",
      undefined,
    ]);
  });

  it("gives one finding of each rule in each file its place before any repeat of a rule of the same severity", () => {
    const repeated = (line: number, path?: string) => ofRule("markers/debugger", line, path);
    const plan = planReview(
      [
        repeated(1),
        repeated(2),
        repeated(3),
        repeated(1, "src/b.ts"),
        ofRule("logic/js-loop-past-end", 4),
        finding(4, "critical"),
      ],
      index,
      new Set(),
      { ...STYLE, max_findings: 4 },
      markers,
    );
    expect(
      plan.deliveries.map(({ finding, delivery }) => [finding.ruleId, finding.path, finding.line, delivery]),
    ).toEqual([
      ["rule/critical", "src/a.ts", 4, "inline"],
      ["markers/debugger", "src/a.ts", 1, "inline"],
      ["markers/debugger", "src/b.ts", 1, "summary"],
      ["logic/js-loop-past-end", "src/a.ts", 4, "inline"],
      ["markers/debugger", "src/a.ts", 2, "not_posted"],
      ["markers/debugger", "src/a.ts", 3, "not_posted"],
    ]);
    expect(notPostedFor(plan, "over_limit")).toBe(2);
  });

  it("comments on one rule in one file at most SAME_RULE_PER_FILE_MAX times, counting those already posted", () => {
    const many = new RightSideIndex([
      addedFile(
        "src/a.ts",
        Array.from({ length: 8 }, (_, i) => `line ${i + 1}`),
      ),
    ]);
    const debuggerAt = (line: number) => ofRule("markers/debugger", line);
    const lines = [1, 2, 3, 4, 5, 6];
    const other = ofRule("logic/js-loop-past-end", 7);
    const first = planReview([...lines.map(debuggerAt), other], many, new Set(), STYLE, markers);
    expect(first.deliveries.map(({ finding, delivery }) => [finding.ruleId, finding.line, delivery])).toEqual(
      [
        ["markers/debugger", 1, "inline"],
        ["logic/js-loop-past-end", 7, "inline"],
        ["markers/debugger", 2, "inline"],
        ["markers/debugger", 3, "inline"],
        ["markers/debugger", 4, "not_posted"],
        ["markers/debugger", 5, "not_posted"],
        ["markers/debugger", 6, "not_posted"],
      ],
    );
    expect(first.repeats).toEqual([{ ruleId: "markers/debugger", path: "src/a.ts", count: 3 }]);
    expect(first.deliveries.slice(4).map(({ notPostedReason }) => notPostedReason)).toEqual([
      "repeat",
      "repeat",
      "repeat",
    ]);
    // Repeats do not take the places max_findings leaves.
    expect(notPostedFor(first, "over_limit")).toBe(0);

    // The same review again: the three on the pull request fill the rule's places in the file.
    const posted = new Set([1, 2, 3].map((line) => debuggerAt(line).fingerprint));
    const again = planReview(lines.map(debuggerAt), many, posted, STYLE, markers);
    expect(again.deliveries.map(({ delivery }) => delivery)).toEqual([
      "duplicate",
      "duplicate",
      "duplicate",
      "not_posted",
      "not_posted",
      "not_posted",
    ]);
    expect(again.comments).toEqual([]);
  });

  it("counts no model finding as a repeat: each says something of its own under the one rule id", () => {
    const many = new RightSideIndex([
      addedFile(
        "src/a.ts",
        Array.from({ length: 6 }, (_, i) => `line ${i + 1}`),
      ),
    ]);
    const fromModel = [1, 2, 3, 4, 5].map((line) => ({
      ...ofRule("ai/review", line),
      source: "ai" as const,
    }));
    const plan = planReview(fromModel, many, new Set(), STYLE, markers);
    expect(plan.deliveries.map(({ delivery }) => delivery)).toEqual(fromModel.map(() => "inline"));
    expect(plan.repeats).toEqual([]);
  });

  it("leaves out findings below the severity threshold, and counts them", () => {
    const plan = planReview(
      [finding(1, "info"), finding(2, "minor"), finding(3, "major")],
      index,
      new Set(),
      {
        ...STYLE,
        severity_threshold: "major",
      },
      markers,
    );
    expect(plan.deliveries.map(({ delivery, notPostedReason }) => [delivery, notPostedReason])).toEqual([
      ["inline", undefined],
      ["not_posted", "below_threshold"],
      ["not_posted", "below_threshold"],
    ]);
    expect(notPostedFor(plan, "below_threshold")).toBe(2);
    expect(notPostedFor(plan, "over_limit")).toBe(0);
  });
});

describe("the posted text", () => {
  const HOSTILE =
    "Leak <!-- argus:fp:" +
    "e".repeat(64) +
    ' --> ![](https://tracker.example/p.png) [sign in](https://phish.example) @octocat <img src="x">';
  const hostile = (line: number | null): Finding => ({
    ...finding(line ?? 1, "critical"),
    line,
    path: line === null ? "src/`b`@x.ts" : "src/a.ts",
    message: HOSTILE,
  });
  it("posts a finding's message and path inert, followed by the engine's signed marker only", () => {
    const plan = planReview([hostile(2), hostile(null)], index, new Set(), STYLE, markers);
    const inline = plan.comments[0]?.body ?? "";
    const summary = summaryBody(plan, facts, true, markers);
    const expected =
      "Leak (image `https://tracker.example/p.png`) sign in (`https://phish.example`) `@octocat` " +
      '`<img src="x">`';
    expect(inline).toBe(
      `**Critical** · \`rule/critical\`\n\n${expected}\n\n${markers.finding(plan.comments[0]?.fingerprint ?? "")}`,
    );
    expect(summary).toContain(
      `- **Critical** \`\`src/\`b\`@x.ts\`\` \`rule/critical\`: ${expected} ${markers.finding(hostile(null).fingerprint)}`,
    );
    // Only the engine's markers are read back: the forged one in the message is gone.
    expect(markers.findings(`${inline}\n${summary}`).sort()).toEqual(
      [plan.comments[0]?.fingerprint, hostile(null).fingerprint].sort(),
    );
    expect(`${inline}${summary}`).not.toContain("e".repeat(64));
  });

  it("lists a moved comment's path as inline code nothing in it can close", () => {
    const moved = summaryWithMoved("Summary", [
      { path: "`x`` @y.ts", line: 3, body: "Body", fingerprint: "f".repeat(64) },
    ]);
    expect(moved).toBe("Summary\n\n**Comments outside the diff**\n- ``` `x`` @y.ts:3 ```: Body");
  });
});

describe("commentBody and summaryBody", () => {
  const sql: Finding = {
    ...finding(2, "critical"),
    ruleId: "sql-injection/js-raw-query",
    category: "security",
    cwe: "CWE-89",
    fix: "Pass the values as parameters.",
  };

  it("name the rule, link its CWE and give the fix, with the finding's marker", () => {
    const body = commentBody(sql, markers);
    expect(body).toContain(
      "**Critical** · `sql-injection/js-raw-query` · [CWE-89](https://cwe.mitre.org/data/definitions/89.html)",
    );
    expect(body).toContain("**Fix:** Pass the values as parameters.");
    expect(body).toContain(markers.finding(sql.fingerprint));
    // A finding without a CWE or fix says neither.
    expect(commentBody(finding(1, "minor"), markers)).not.toMatch(/CWE|Fix/);

    const plan = planReview([sql], index, new Set(), { ...STYLE, inline_comments: false }, markers);
    const summary = summaryBody(
      plan,
      {
        productName: "Argus",
        since: null,
        headSha: "a".repeat(40),
        filesReviewed: 1,
        skipped: 0,
        duplicates: 0,
        maxFindings: 10,
      },
      false,
      markers,
    );
    expect(summary).toContain(
      "`sql-injection/js-raw-query` · [CWE-89](https://cwe.mitre.org/data/definitions/89.html)",
    );
    expect(summary).toContain("Fix: Pass the values as parameters.");
  });

  it("counts in the overview the findings below the lowest severity reported", () => {
    const style = { ...STYLE, severity_threshold: "critical" as const };
    const plan = planReview(
      [finding(1, "critical"), finding(2, "major"), finding(3, "minor")],
      index,
      new Set(),
      style,
      markers,
    );
    const summary = summaryBody(plan, facts, true, markers);
    expect(summary).toContain("(1 file): 1 new finding, 2 below the lowest severity reported.");
    const none = summaryBody(
      planReview([finding(1, "critical")], index, new Set(), style, markers),
      facts,
      true,
      markers,
    );
    expect(none).not.toContain("below the lowest severity");
  });

  it("sum up the repeats of a rule in a file in one line each, paths and rule ids inert", () => {
    const repeated = (line: number, path: string) => ofRule("markers/debugger", line, path);
    const odd = "src/`b`.ts";
    const findings = [1, 2, 3, 4, 5].map((line) => repeated(line, "src/a.ts"));
    findings.push(...[1, 2, 3, 4].map((line) => repeated(line, odd)));
    const plan = planReview(findings, index, new Set(), STYLE, markers);
    const summary = summaryBody(
      plan,
      {
        productName: "Argus",
        since: null,
        headSha: "a".repeat(40),
        filesReviewed: 2,
        skipped: 0,
        duplicates: 0,
        maxFindings: 10,
      },
      true,
      markers,
    );
    expect(summary).toContain("6 new findings, 3 more of a rule already commented on in the same file.");
    expect(summary).toContain(
      [
        "**More of the same** (at most 3 comments of a rule in a file)",
        "- `markers/debugger` in `src/a.ts`: 2 more",
        "- `markers/debugger` in ``src/`b`.ts``: 1 more",
      ].join("\n"),
    );
  });
});
