import { describe, expect, it } from "vitest";
import type { Finding } from "../../../shared/contract/reviews.ts";
import { findingsToKeep, type RecordedFinding, RUN_FINDINGS_KEPT_MAX } from "./runs.ts";

const recorded = (
  index: number,
  delivery: RecordedFinding["delivery"],
  shadowDelivery: RecordedFinding["shadowDelivery"] = null,
): RecordedFinding => ({
  finding: { fingerprint: `fp-${index}` } as Finding,
  delivery,
  shadowDelivery,
});

const fingerprints = (findings: RecordedFinding[]) => findings.map(({ finding }) => finding.fingerprint);

describe("findingsToKeep", () => {
  it("keeps every finding of a run that has no more than the limit", () => {
    const findings = Array.from({ length: RUN_FINDINGS_KEPT_MAX }, (_, index) =>
      recorded(index, "not_posted"),
    );
    expect(findingsToKeep(findings)).toEqual(findings);
  });

  it("keeps every posted finding, even behind more duplicates than the limit, then the first of the rest, in order", () => {
    const duplicates = Array.from({ length: RUN_FINDINGS_KEPT_MAX + 5 }, (_, index) =>
      recorded(index, "duplicate"),
    );
    const posted = [recorded(1000, "inline"), recorded(1001, "summary")];
    const kept = findingsToKeep([...duplicates, ...posted, recorded(1002, "not_posted")]);
    expect(kept).toHaveLength(RUN_FINDINGS_KEPT_MAX);
    expect(fingerprints(kept).slice(-2)).toEqual(["fp-1000", "fp-1001"]);
    expect(fingerprints(kept).slice(0, RUN_FINDINGS_KEPT_MAX - 2)).toEqual(
      fingerprints(duplicates.slice(0, RUN_FINDINGS_KEPT_MAX - 2)),
    );
  });

  it("counts what a shadow review would have posted as posted", () => {
    const rest = Array.from({ length: RUN_FINDINGS_KEPT_MAX }, (_, index) => recorded(index, "not_posted"));
    const kept = findingsToKeep([...rest, recorded(1000, "shadow", "inline")]);
    expect(fingerprints(kept)).toContain("fp-1000");
    expect(fingerprints(kept)).not.toContain(`fp-${RUN_FINDINGS_KEPT_MAX - 1}`);
  });
});
