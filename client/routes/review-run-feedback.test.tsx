import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { RUN_ID, runDetail } from "../../tests/support/client/review-fixtures";
import ReviewRun, { loader } from "./review-run";

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  const fixture = runDetail();
  const [posted, summary] = fixture.findings;
  if (!posted || !summary) throw new Error("fixture");
  const detail = runDetail({
    findings: [posted, { ...summary, delivery: "suppressed", feedback: { thumbsUp: 1, thumbsDown: 3 } }],
  });
  fetchMock.mockImplementation(async (input) => {
    if (String(input) === `http://backend.test/api/reviews/${RUN_ID}`)
      return jsonResponse({ success: true, data: detail });
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe("/reviews/:runId feedback", () => {
  it("shows each finding's 👍 and 👎, the run's totals, and a suppressed finding as such", async () => {
    renderPage({ path: "reviews/:runId", loader, Component: ReviewRun }, `/reviews/${RUN_ID}`);
    expect(await screen.findByText("Feedback")).toBeInTheDocument();
    // 2 + 1 useful, 0 + 3 noise.
    expect(screen.getByText("Feedback").nextElementSibling).toHaveTextContent("3 useful, 3 noise");
    const findings = within(screen.getByRole("region", { name: "Findings" })).getAllByRole("listitem");
    expect(findings[0]).toHaveTextContent("2 useful, 0 noise");
    expect(findings[1]).toHaveTextContent("Suppressed (marked as noise in this repository)");
    expect(findings[1]).toHaveTextContent("1 useful, 3 noise");
  });
});
