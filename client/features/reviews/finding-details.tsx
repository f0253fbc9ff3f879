/**
 * What a finding says about itself beyond its message (docs/product.md, "/reviews/:runId"): the
 * kind of flaw, the weakness's CWE id linked to MITRE's page, and how to fix it. Findings recorded
 * before they carried these show none of them.
 */

import type { RunFinding } from "../../../shared/contract/reviews.ts";
import { cweUrl } from "../../../shared/contract/reviews.ts";
import { MarkdownBody } from "./markdown-body";

type Finding = RunFinding["finding"];

/** Where a finding is: `path:line`, a file, or the whole pull request. */
export function findingPlace(finding: Pick<Finding, "path" | "line">): string {
  if (finding.path === null) return "The whole pull request";
  return finding.line === null ? finding.path : `${finding.path}:${finding.line}`;
}

export const FINDING_CATEGORY_LABELS: Record<NonNullable<Finding["category"]>, string> = {
  security: "Security",
  logic: "Logic",
  "resource-leak": "Resource leak",
  race: "Race",
  correctness: "Correctness",
  hygiene: "Hygiene",
};

/** "· Security · CWE-89", beside the rule id. */
export function FindingReference({ finding }: { finding: Finding }) {
  return (
    <>
      {finding.category ? (
        <span className="text-fg-muted text-xs">· {FINDING_CATEGORY_LABELS[finding.category]}</span>
      ) : null}
      {finding.cwe ? (
        <a
          href={cweUrl(finding.cwe)}
          target="_blank"
          rel="noopener noreferrer"
          className="focus-ring rounded-sm text-accent-text text-xs hover:underline"
        >
          {finding.cwe}
          <span className="sr-only"> on MITRE's list of weaknesses (opens in a new tab)</span>
        </a>
      ) : null}
    </>
  );
}

/** The fix hint, under the message, rendered on the server (decision 036). */
export function FindingFix({ html }: { html: string | null }) {
  if (!html) return null;
  return (
    <div className="flex gap-1 text-fg-muted">
      <span className="font-medium text-fg">Fix: </span>
      <MarkdownBody html={html} className="text-fg-muted" />
    </div>
  );
}
