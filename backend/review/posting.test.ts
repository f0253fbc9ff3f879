import { describe, expect, it } from "vitest";
import type { Finding, FindingSeverity } from "../../shared/review-contract.ts";
import { SETTINGS_CATALOGUE } from "../../shared/settings-catalogue.ts";
import { addedFile } from "../../tests/support/review-files.ts";
import { RightSideIndex } from "./diff.ts";
import { fingerprint } from "./findings.ts";
import { commentBody, fingerprintMarker, planReview, summaryBody } from "./posting.ts";
import type { ReviewSettings } from "./review-settings.ts";

const STYLE = Object.fromEntries(
  (
    SETTINGS_CATALOGUE.find((category) => category.setting_category === "comment_style")?.default_value ?? []
  ).map((item) => [item.key, item.value]),
) as ReviewSettings["comment_style"];

const index = new RightSideIndex([addedFile("src/a.ts", ["one", "two", "three", "four"])]);

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

describe("planReview", () => {
  it("plans the most severe first and posts at most max_findings new findings; duplicates do not count", () => {
    const minor = finding(1, "minor");
    const major = finding(2, "major");
    const critical = finding(3, "critical");
    // Already on the pull request, and below the cut the limit makes: still a duplicate.
    const posted = finding(4, "minor");
    const plan = planReview([minor, major, posted, critical], index, new Set([posted.fingerprint]), {
      ...STYLE,
      severity_threshold: "minor",
      max_findings: 2,
    });
    expect(plan.deliveries.map(({ finding, delivery }) => [finding.line, delivery])).toEqual([
      [3, "inline"],
      [2, "inline"],
      [1, "not_posted"],
      [4, "duplicate"],
    ]);
    expect(plan.comments.map((comment) => comment.line)).toEqual([3, 2]);
  });

  it("leaves out findings below the severity threshold", () => {
    const plan = planReview(
      [finding(1, "info"), finding(2, "minor"), finding(3, "major")],
      index,
      new Set(),
      {
        ...STYLE,
        severity_threshold: "major",
      },
    );
    expect(plan.deliveries.map(({ delivery }) => delivery)).toEqual(["inline", "not_posted", "not_posted"]);
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
    const body = commentBody(sql);
    expect(body).toContain(
      "**Critical** · `sql-injection/js-raw-query` · [CWE-89](https://cwe.mitre.org/data/definitions/89.html)",
    );
    expect(body).toContain("**Fix:** Pass the values as parameters.");
    expect(body).toContain(fingerprintMarker(sql.fingerprint));
    // A finding without a CWE or fix says neither.
    expect(commentBody(finding(1, "minor"))).not.toMatch(/CWE|Fix/);

    const plan = planReview([sql], index, new Set(), { ...STYLE, inline_comments: false });
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
    );
    expect(summary).toContain(
      "`sql-injection/js-raw-query` · [CWE-89](https://cwe.mitre.org/data/definitions/89.html)",
    );
    expect(summary).toContain("Fix: Pass the values as parameters.");
  });
});
